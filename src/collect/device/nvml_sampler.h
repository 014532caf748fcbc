// The GPU's vital signs from NVML (power, clocks, temperature, clock event
// reasons, memory used, utilisation) as columns beside the PM counters: a
// DeviceSampler that appends them to every row of the one it wraps. NVML is read
// once per GPU per drain() (callers drain every ~100 ms), so rows drained together
// carry the same reading.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collect/counters/device_sampler.h"
#include "collect/device/nvml.h"

namespace cuprobe {

// The appended columns, in order: power_w, sm_clock_mhz, mem_clock_mhz, temperature_c,
// memory_used_bytes, gpu_util_pct, clock_event_reasons (the nvmlClocksEventReasons bitmask).
const std::vector<std::string>& nvml_vital_columns();
std::vector<double> nvml_vital_values(const NvmlVitals& vitals);  // same order; NaN = unknown

// NVML's index of a CUDA device ordinal (matched by PCI bus id); the ordinal itself when
// the CUDA driver cannot say (no driver, tests).
int nvml_index_of_cuda_ordinal(const Nvml& nvml, int ordinal);

// `inner` with the vital columns appended. `nvml_index` maps a row's gpu to NVML's index
// (default: nvml_index_of_cuda_ordinal). Without NVML the columns stay, empty (NaN).
std::unique_ptr<DeviceSampler> with_nvml_vitals(std::unique_ptr<DeviceSampler> inner, const Nvml& nvml,
                                                std::function<int(int)> nvml_index = {});

}  // namespace cuprobe
