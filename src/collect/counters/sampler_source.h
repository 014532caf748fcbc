// Where counters come from, for `sample`, `bench --sample` and `exporter`:
// CUPTI PM sampling (the default) or a dcgm-exporter endpoint
// (`--source dcgm=URL`). One home for the option's meaning and for opening the
// sampler, with NVML's vital signs appended as columns.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "collect/counters/device_sampler.h"
#include "net/http_url.h"

namespace cuprobe {

struct CounterSource {
  bool dcgm = false;
  HttpUrl dcgm_url;  // when dcgm
  std::string text;  // as given: "cupti" or "dcgm=URL"
  std::string name() const { return dcgm ? "dcgm" : "cupti"; }
};

// "cupti" or "dcgm=URL"; throws exit 2 otherwise.
CounterSource parse_counter_source(std::string_view text);

// The counters of `source` (throws like open_device_sampler: exit 3 when unavailable),
// with NVML's vital-sign columns appended when `vitals`. CUPROBE_TEST_PM_BACKEND=synthetic
// (test-only) replaces CUPTI with collect/counters/synthetic_pm_backend.h.
std::unique_ptr<DeviceSampler> open_counter_sampler(const SamplerConfig& config, const CounterSource& source,
                                                    bool vitals);

// Maps a counter row's gpu to NVML's device index: the CUDA ordinal's PCI bus id for CUPTI,
// the gpu label itself for DCGM (DCGM numbers GPUs as NVML does).
int nvml_index_of_counter_gpu(const CounterSource& source, int gpu);

}  // namespace cuprobe
