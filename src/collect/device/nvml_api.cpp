#include "collect/device/nvml_api.h"

#include <cmath>

namespace cuprobe {

double field_value_number(const nvmlFieldValue_t& v) {
  if (v.nvmlReturn != kNvmlSuccess) return NAN;
  switch (v.valueType) {
    case kNvmlDouble:
      return v.value.dVal;
    case kNvmlUint:
      return v.value.uiVal;
    case kNvmlUlong:
      return static_cast<double>(v.value.ulVal);
    case kNvmlUlonglong:
      return static_cast<double>(v.value.ullVal);
    case kNvmlSlonglong:
      return static_cast<double>(v.value.sllVal);
  }
  return NAN;
}

NvmlMemoryBytes read_memory_bytes(const Nvml::Api& api, nvmlDevice_t dev) {
  NvmlMemoryBytes out;
  nvmlMemory_v2_t m{};
  m.version = kMemoryV2Version;
  if (api.memory_v2 && api.memory_v2(dev, &m) == kNvmlSuccess) {
    out.total = static_cast<double>(m.total);
    out.free = static_cast<double>(m.free);
    out.used = static_cast<double>(m.used);
    out.reserved = static_cast<double>(m.reserved);
    return out;
  }
  nvmlMemory_t m1{};
  if (api.memory && api.memory(dev, &m1) == kNvmlSuccess) {
    out.total = static_cast<double>(m1.total);
    out.free = static_cast<double>(m1.free);
    out.used = static_cast<double>(m1.used);
  }
  return out;
}

std::vector<std::string> missing_optional_symbols(const Nvml::Api& api) {
  std::vector<std::string> missing;
  auto check = [&](const void* fn, const char* name) {
    if (!fn) missing.emplace_back(name);
  };
  check(reinterpret_cast<const void*>(api.energy), "nvmlDeviceGetTotalEnergyConsumption");
  check(reinterpret_cast<const void*>(api.pcie_replays), "nvmlDeviceGetPcieReplayCounter");
  check(reinterpret_cast<const void*>(api.remapped_rows), "nvmlDeviceGetRemappedRows");
  check(reinterpret_cast<const void*>(api.field_values), "nvmlDeviceGetFieldValues");
  check(reinterpret_cast<const void*>(api.memory_v2), "nvmlDeviceGetMemoryInfo_v2");
  check(reinterpret_cast<const void*>(api.encoder_util), "nvmlDeviceGetEncoderUtilization");
  check(reinterpret_cast<const void*>(api.decoder_util), "nvmlDeviceGetDecoderUtilization");
  check(reinterpret_cast<const void*>(api.event_set_wait), "nvmlEventSetWait_v2");
  check(reinterpret_cast<const void*>(api.mig_mode), "nvmlDeviceGetMigMode");
  return missing;
}

}  // namespace cuprobe
