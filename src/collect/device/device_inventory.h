// What `cuprobe devices` reports: each GPU, who holds memory on it, and whether
// its counters can be read. Gathering needs the driver; formatting and the idle
// check work on plain data (tested without a GPU).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collect/counters/pm_backend.h"

namespace cuprobe {

struct GpuProcessInfo {
  unsigned pid = 0;
  std::uint64_t used_bytes = 0;
  std::string name;  // /proc/PID/comm, "?" when not visible from here
};

struct DeviceReport {
  int index = -1;  // CUDA ordinal (what --gpu takes)
  std::string name, chip, uuid, pci_bus_id;
  int sm_count = -1;
  int compute_capability_major = -1, compute_capability_minor = -1;
  std::uint64_t memory_total = 0, memory_used = 0;  // used excludes driver-reserved memory where NVML says
  int utilization_gpu = -1;                         // nvidia-smi's GPU-Util, -1 unknown
  std::vector<GpuProcessInfo> processes;
  CounterStatus counters = CounterStatus::kOther;
  std::string counters_reason;  // empty when counters are readable
};

struct DevicesReport {
  std::string driver_version;   // NVML's, e.g. "580.95.05"
  int cuda_driver_version = 0;  // e.g. 13000
  std::string error;            // set when no GPU could be listed (no driver, no GPU)
  CounterStatus error_status = CounterStatus::kOk;
  std::vector<DeviceReport> gpus;
};

// Lists GPUs through the CUDA driver and NVML, and probes counters through `backend`
// (null: built without CUPTI).
DevicesReport collect_devices(PmBackend* backend);

// Busy = a process holds the GPU, or more than `max_idle_bytes` of memory is in use.
struct IdleCheck {
  bool idle = true;
  std::vector<std::string> reasons;  // one per busy GPU
};
IdleCheck check_idle(const DevicesReport& report, std::uint64_t max_idle_bytes);

}  // namespace cuprobe
