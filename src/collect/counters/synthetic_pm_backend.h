// A PmBackend that invents its samples: test-only, for end-to-end tests of the
// binary without a GPU (the exporter under a real Prometheus, sample's columns).
// Selected by the environment variable CUPROBE_TEST_PM_BACKEND=synthetic
// (collect/counters/sampler_source.cpp); never by a command-line option.
//
// Two GH100 devices (CUPROBE_TEST_PM_GPUS=N for another count) whose samples
// follow the clock at the configured interval, with fixed values per metric:
// a tensor metric reads 42.5 + gpu, other percentages 60 + gpu, rates
// (.per_second) 1e9 * (gpu + 1), anything else 1. CUPROBE_TEST_PM_BUSY=1 makes
// enable() answer "busy" (another profiler holds the counters). CUPROBE_TEST_PM_PARTS=K
// makes each sample arrive as K records over its interval, decoded into a counter image
// of settings.max_samples samples as the CUPTI backend does (parted_pm_samples.h): the
// values read the same, unless the image handling cuts samples (issue 29).
#pragma once

#include <memory>

#include "collect/counters/pm_backend.h"

namespace cuprobe {

std::unique_ptr<PmBackend> make_synthetic_pm_backend();

// The value the synthetic backend reports for `raw_metric` on `gpu`.
double synthetic_pm_value(const std::string& raw_metric, int gpu);

}  // namespace cuprobe
