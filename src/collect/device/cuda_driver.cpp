#include "collect/device/cuda_driver.h"

#include <dlfcn.h>

#include <cctype>

#include "collect/device/gpu_uuid.h"

namespace cuprobe {
namespace {

template <typename F>
void bind(void* handle, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
}


}  // namespace

CudaDriver& CudaDriver::instance() {
  static CudaDriver driver;
  return driver;
}

CudaDriver::CudaDriver() {
  handle_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!handle_) {
    const char* why = dlerror();
    error_ = why ? why : "libcuda.so.1: not found";
    return;
  }
  bind(handle_, "cuInit", cu_init_);
  bind(handle_, "cuDeviceGetCount", cu_device_get_count_);
  bind(handle_, "cuDeviceGet", cu_device_get_);
  bind(handle_, "cuDeviceGetName", cu_device_get_name_);
  bind(handle_, "cuDeviceGetAttribute", cu_device_get_attribute_);
  bind(handle_, "cuDeviceTotalMem_v2", cu_device_total_mem_);
  bind(handle_, "cuDeviceGetPCIBusId", cu_device_get_pci_bus_id_);
  bind(handle_, "cuDeviceGetUuid_v2", cu_device_get_uuid_);
  if (!cu_device_get_uuid_) bind(handle_, "cuDeviceGetUuid", cu_device_get_uuid_);
  bind(handle_, "cuDriverGetVersion", cu_driver_get_version_);
  bind(handle_, "cuGetErrorName", cu_get_error_name_);
  if (!cu_init_ || !cu_device_get_count_ || !cu_device_get_) {
    error_ = "libcuda.so.1 lacks cuInit/cuDeviceGetCount";
    return;
  }
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
