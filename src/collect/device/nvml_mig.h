// MIG as NVML shows it: whether a GPU has MIG on (nvmlDeviceGetMigMode) and its
// GPU instances (nvmlDeviceGetMaxMigDeviceCount, nvmlDeviceGetMigDeviceHandleByIndex,
// nvmlDeviceGetGpuInstanceId), each with the profile name dcgm-exporter puts in
// GPU_I_PROFILE ("1g.18gb": the MIG device's name after "MIG ") and its own memory.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "collect/device/nvml.h"

namespace cuprobe {

struct GpuInstance {
  unsigned id = 0;      // GPU_I_ID
  std::string profile;  // GPU_I_PROFILE, "1g.18gb"
  std::string uuid;     // "MIG-..."
  double memory_total_bytes = NAN, memory_free_bytes = NAN, memory_used_bytes = NAN, memory_reserved_bytes = NAN;
};

// The GPU instances of device `index` (one per GPU instance, its first MIG device);
// empty when MIG is off, unsupported, or NVML lacks the MIG functions.
std::vector<GpuInstance> nvml_gpu_instances(const Nvml& nvml, int index);

// "1g.18gb" from a MIG device name such as "NVIDIA H200 MIG 1g.18gb"; the name itself when
// it has no "MIG " part.
std::string mig_profile_from_name(const std::string& name);

}  // namespace cuprobe
