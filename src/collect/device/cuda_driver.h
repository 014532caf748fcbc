// The few CUDA driver calls cuprobe makes itself, through dlopen("libcuda.so.1"):
// linking the driver would keep cuprobe from starting on hosts without one.
#pragma once

#include <cstdint>
#include <string>

namespace cuprobe {

class CudaDriver {
 public:
  // Loads libcuda.so.1 and runs cuInit(0) once. Never throws.
  static CudaDriver& instance();

  bool loaded() const { return loaded_; }
  // 0 when the driver is usable; else the CUresult of cuInit (or -1 when not loaded).
  int init_result() const { return init_result_; }
  const std::string& error() const { return error_; }  // why it is not usable

  int device_count() const;
  std::string device_name(int ordinal) const;
  std::string pci_bus_id(int ordinal) const;           // "0000:18:00.0", lowercased; "" on failure
  std::string uuid(int ordinal) const;                 // "GPU-8c6f0d1e-...", as nvidia-smi; "" on failure
  int attribute(int attribute_id, int ordinal) const;  // -1 on failure
  std::uint64_t total_memory(int ordinal) const;
  int driver_version() const;  // e.g. 13000; 0 on failure

  static constexpr int kAttrMultiprocessorCount = 16;
  static constexpr int kErrorNoDevice = 100;  // CUDA_ERROR_NO_DEVICE
  static constexpr int kAttrComputeCapabilityMajor = 75;
  static constexpr int kAttrComputeCapabilityMinor = 76;

 private:
  CudaDriver();
  bool loaded_ = false;
  int init_result_ = -1;
  std::string error_;
  void* handle_ = nullptr;
  int (*cu_init_)(unsigned) = nullptr;
  int (*cu_device_get_count_)(int*) = nullptr;
  int (*cu_device_get_)(int*, int) = nullptr;
  int (*cu_device_get_name_)(char*, int, int) = nullptr;
  int (*cu_device_get_attribute_)(int*, int, int) = nullptr;
  int (*cu_device_total_mem_)(std::size_t*, int) = nullptr;
  int (*cu_device_get_pci_bus_id_)(char*, int, int) = nullptr;
  int (*cu_device_get_uuid_)(unsigned char*, int) = nullptr;  // CUuuid* is 16 bytes
  int (*cu_driver_get_version_)(int*) = nullptr;
  int (*cu_get_error_name_)(int, const char**) = nullptr;
};

}  // namespace cuprobe
