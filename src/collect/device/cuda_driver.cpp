#include "collect/device/cuda_driver.h"

#include <cctype>

#include "collect/device/gpu_uuid.h"
#include "common/shared_library.h"

namespace cuprobe {

CudaDriver& CudaDriver::instance() {
  static CudaDriver driver;
  return driver;
}

CudaDriver::CudaDriver() {
  OpenedLibrary lib = open_library({"libcuda.so.1"}, RTLD_NOW | RTLD_GLOBAL);
  handle_ = lib.handle;
  if (!lib) {
    error_ = lib.error;
    return;
  }
  error_ = resolve_symbols(
      lib, {required_symbol("cuInit", cu_init_), required_symbol("cuDeviceGetCount", cu_device_get_count_),
            required_symbol("cuDeviceGet", cu_device_get_), optional_symbol("cuDeviceGetName", cu_device_get_name_),
            optional_symbol("cuDeviceGetAttribute", cu_device_get_attribute_),
            optional_symbol("cuDeviceTotalMem_v2", cu_device_total_mem_),
            optional_symbol("cuDeviceGetPCIBusId", cu_device_get_pci_bus_id_),
            optional_symbol("cuDeviceGetUuid_v2", cu_device_get_uuid_),
            optional_symbol("cuDriverGetVersion", cu_driver_get_version_),
            optional_symbol("cuGetErrorName", cu_get_error_name_)});
  if (!cu_device_get_uuid_) resolve_symbols(lib, {optional_symbol("cuDeviceGetUuid", cu_device_get_uuid_)});
  if (!error_.empty()) return;
  loaded_ = true;
  init_result_ = cu_init_(0);
  if (init_result_ != 0) {
    const char* name = nullptr;
    if (cu_get_error_name_) cu_get_error_name_(init_result_, &name);
    error_ = std::string("cuInit: ") + (name ? name : "error " + std::to_string(init_result_));
  }
}

int CudaDriver::device_count() const {
  if (!loaded_ || init_result_ != 0) return 0;
  int n = 0;
  return cu_device_get_count_(&n) == 0 ? n : 0;
}

std::string CudaDriver::device_name(int ordinal) const {
  int dev = 0;
  char buf[256] = {};
  if (!loaded_ || !cu_device_get_name_ || cu_device_get_(&dev, ordinal) != 0) return "";
  if (cu_device_get_name_(buf, sizeof buf - 1, dev) != 0) return "";
  return buf;
}

std::string CudaDriver::uuid(int ordinal) const {
  int dev = 0;
  unsigned char bytes[16] = {};
  if (!loaded_ || init_result_ != 0 || !cu_device_get_uuid_ || cu_device_get_(&dev, ordinal) != 0) return "";
  if (cu_device_get_uuid_(bytes, dev) != 0) return "";
  return format_gpu_uuid(bytes);
}

std::string CudaDriver::pci_bus_id(int ordinal) const {
  int dev = 0;
  char buf[64] = {};
  if (!loaded_ || !cu_device_get_pci_bus_id_ || cu_device_get_(&dev, ordinal) != 0) return "";
  if (cu_device_get_pci_bus_id_(buf, sizeof buf - 1, dev) != 0) return "";
  std::string s = buf;
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int CudaDriver::attribute(int attribute_id, int ordinal) const {
  int dev = 0, value = -1;
  if (!loaded_ || !cu_device_get_attribute_ || cu_device_get_(&dev, ordinal) != 0) return -1;
  return cu_device_get_attribute_(&value, attribute_id, dev) == 0 ? value : -1;
}

std::uint64_t CudaDriver::total_memory(int ordinal) const {
  int dev = 0;
  std::size_t bytes = 0;
  if (!loaded_ || !cu_device_total_mem_ || cu_device_get_(&dev, ordinal) != 0) return 0;
  return cu_device_total_mem_(&bytes, dev) == 0 ? bytes : 0;
}

int CudaDriver::driver_version() const {
  int v = 0;
  if (!loaded_ || !cu_driver_get_version_) return 0;
  return cu_driver_get_version_(&v) == 0 ? v : 0;
}

}  // namespace cuprobe
