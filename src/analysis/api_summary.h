// Runtime and driver calls by name (nsys cuda_api_sum): calls, total, mean,
// median and max duration (docs/analyze-tables.md "CUDA API summary").
#pragma once

#include <vector>

#include "analysis/trace_tables.h"
#include "model/profile.h"

namespace cuprobe {

// Every CpuRangeKind::kRuntime range (Kineto cuda_runtime/cuda_driver, run files' runtime and driver ranges,
// nsys CUPTI_ACTIVITY_KIND_RUNTIME, rocprofv3 HIP API); by total time, largest first. Empty without any.
std::vector<ApiRow> api_summary(const Profile& profile);

}  // namespace cuprobe
