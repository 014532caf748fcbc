// DeviceSampler over a PmBackend: picks the GPUs and metrics, turns backend
// failures into clear refusals, and decodes on its own thread so that callers
// only drain rows.
#pragma once

#include <memory>

#include "collect/counters/device_sampler.h"
#include "collect/counters/pm_backend.h"

namespace cuprobe {

// Throws like open_device_sampler(); `backend` null means built without CUPTI.
std::unique_ptr<DeviceSampler> open_pm_sampler(std::unique_ptr<PmBackend> backend, const SamplerConfig& config);

}  // namespace cuprobe
