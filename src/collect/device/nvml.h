// The few NVML calls `cuprobe devices` makes, through dlopen("libnvidia-ml.so.1")
// (the toolkit ships no NVML header; the driver ships the library).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuprobe {

struct NvmlProcess {
  unsigned pid = 0;
  std::uint64_t used_bytes = 0;  // 0 when NVML cannot tell
  bool compute = true;           // false: graphics context
};

struct NvmlDeviceInfo {
  std::string name, uuid, pci_bus_id;  // pci_bus_id lowercased, "0000:18:00.0"
  std::uint64_t memory_total = 0, memory_used = 0, memory_reserved = 0;
  int utilization_gpu = -1;  // nvidia-smi's "GPU-Util" (% of time a kernel ran), -1 unknown
  std::vector<NvmlProcess> processes;
};

class Nvml {
 public:
  static Nvml& instance();  // loads and initializes once; never throws
  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  std::string driver_version() const;
  int device_count() const;
  bool device(int index, NvmlDeviceInfo& info) const;
  // Index of the device with this PCI bus id ("0000:18:00.0"), or -1.
  int index_of_pci_bus_id(const std::string& bus_id) const;

 private:
  Nvml();
  bool ok_ = false;
  std::string error_;
  void* handle_ = nullptr;
};

// "0000:18:00.0" from NVML's "00000000:18:00.0" (or any domain width), lowercased.
std::string normalize_pci_bus_id(const std::string& id);

}  // namespace cuprobe
