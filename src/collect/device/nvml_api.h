// NVML's ABI as cuprobe binds it (the toolkit ships no nvml.h; the driver ships
// the library): the structs and constants of the calls made, and the resolved
// functions (Nvml::Api). Private to collect/device's NVML files.
#pragma once

#include <climits>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "collect/device/nvml.h"

namespace cuprobe {

// From NVML's public ABI (nvml.h, not shipped with this toolkit).
using nvmlDevice_t = void*;
using nvmlReturn_t = int;
inline constexpr nvmlReturn_t kNvmlSuccess = 0;
inline constexpr nvmlReturn_t kNvmlInsufficientSize = 7;
inline constexpr unsigned kClockSm = 1, kClockMem = 2;  // nvmlClockType_t
inline constexpr unsigned kTemperatureGpu = 0;          // nvmlTemperatureSensors_t

struct nvmlMemory_t {
  unsigned long long total, free, used;
};
struct nvmlMemory_v2_t {
  unsigned int version;
  unsigned long long total, reserved, free, used;
};
struct nvmlUtilization_t {
  unsigned int gpu, memory;
};
struct nvmlProcessInfo_t {  // _v2/_v3 layout
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId, computeInstanceId;
};
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};
inline constexpr unsigned int kMemoryV2Version = static_cast<unsigned int>(sizeof(nvmlMemory_v2_t)) | (2u << 24);
inline constexpr nvmlReturn_t kNvmlTimeout = 10;
inline constexpr unsigned long long kNvmlEventXid = 0x8;  // nvmlEventTypeXidCriticalError
inline constexpr unsigned kNvmlFieldMemoryTemp = 82;      // NVML_FI_DEV_MEMORY_TEMP
inline constexpr unsigned kNvmlFieldNvlinkDataTx = 138;   // NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX (KiB)
inline constexpr unsigned kNvmlFieldNvlinkDataRx = 139;   // NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX (KiB)
inline constexpr unsigned kNvmlAllLinks = UINT_MAX;       // scopeId: summed over every link
inline constexpr unsigned kNvmlVirtualizationVgpu = 2;    // NVML_GPU_VIRTUALIZATION_MODE_VGPU (a vGPU guest)

enum nvmlValueType_t : int { kNvmlDouble = 0, kNvmlUint = 1, kNvmlUlong = 2, kNvmlUlonglong = 3, kNvmlSlonglong = 4 };
union nvmlValue_t {
  double dVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  long long sllVal;
  int siVal;
  unsigned short usVal;
};
struct nvmlFieldValue_t {
  unsigned int fieldId, scopeId;
  long long timestamp, latencyUsec;
  nvmlValueType_t valueType;
  nvmlReturn_t nvmlReturn;
  nvmlValue_t value;
};
using nvmlEventSet_t = void*;
struct nvmlEventData_t {  // as nvmlEventSetWait_v2 fills it
  nvmlDevice_t device;
  unsigned long long eventType, eventData;
  unsigned int gpuInstanceId, computeInstanceId;
};
struct nvmlGridLicenseExpiry_t {
  unsigned int year;
  unsigned short month, day, hour, min, sec, status;
};
struct nvmlGridLicensableFeature_t {
  int featureCode;
  unsigned int featureState;
  char licenseInfo[128];
  char productName[128];
  unsigned int featureEnabled;
  nvmlGridLicenseExpiry_t licenseExpiry;
};
struct nvmlGridLicensableFeatures_t {
  int isGridLicenseSupported;
  unsigned int licensableFeaturesCount;
  nvmlGridLicensableFeature_t gridLicensableFeatures[3];
};

// The value of a field read with nvmlDeviceGetFieldValues, as a double; NaN when it failed.
double field_value_number(const nvmlFieldValue_t& v);

struct Nvml::Api {
  nvmlReturn_t (*init)() = nullptr;
  const char* (*error_string)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*system_driver_version)(char*, unsigned) = nullptr;
  nvmlReturn_t (*count)(unsigned*) = nullptr;
  nvmlReturn_t (*by_index)(unsigned, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*by_pci)(const char*, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*uuid)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*pci)(nvmlDevice_t, nvmlPciInfo_t*) = nullptr;
  nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
  nvmlReturn_t (*memory_v2)(nvmlDevice_t, nvmlMemory_v2_t*) = nullptr;
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  nvmlReturn_t (*compute_procs)(nvmlDevice_t, unsigned*, nvmlProcessInfo_t*) = nullptr;
  nvmlReturn_t (*graphics_procs)(nvmlDevice_t, unsigned*, nvmlProcessInfo_t*) = nullptr;
  nvmlReturn_t (*power)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*clock)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*temperature)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*clock_events)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*clock_throttle)(nvmlDevice_t, unsigned long long*) = nullptr;
  // Health (nvml_health.cpp): optional, each missing one leaves its series absent.
  nvmlReturn_t (*energy)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*pcie_replays)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*remapped_rows)(nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*field_values)(nvmlDevice_t, int, nvmlFieldValue_t*) = nullptr;
  nvmlReturn_t (*encoder_util)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*decoder_util)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*virtualization_mode)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*grid_licensable_features)(nvmlDevice_t, nvmlGridLicensableFeatures_t*) = nullptr;
  // XID events (nvml_xid_watcher.cpp).
  nvmlReturn_t (*event_set_create)(nvmlEventSet_t*) = nullptr;
  nvmlReturn_t (*register_events)(nvmlDevice_t, unsigned long long, nvmlEventSet_t) = nullptr;
  nvmlReturn_t (*event_set_wait)(nvmlEventSet_t, nvmlEventData_t*, unsigned) = nullptr;
  nvmlReturn_t (*event_set_free)(nvmlEventSet_t) = nullptr;
  // MIG (nvml_mig.cpp).
  nvmlReturn_t (*mig_mode)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*max_mig_devices)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*mig_device_by_index)(nvmlDevice_t, unsigned, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*gpu_instance_id)(nvmlDevice_t, unsigned*) = nullptr;
};

// Device memory in bytes: memory info v2 (with reserved); without it v1, where free + used = total
// and reserved stays NaN. All NaN when neither reads.
struct NvmlMemoryBytes {
  double total = NAN, free = NAN, used = NAN, reserved = NAN;
};
NvmlMemoryBytes read_memory_bytes(const Nvml::Api& api, nvmlDevice_t dev);

// read_memory_bytes into the memory_{total,free,used,reserved}_bytes of a GPU's or GPU instance's record.
template <class Record>
void read_memory_into(const Nvml::Api& api, nvmlDevice_t dev, Record& out) {
  NvmlMemoryBytes m = read_memory_bytes(api, dev);
  out.memory_total_bytes = m.total;
  out.memory_free_bytes = m.free;
  out.memory_used_bytes = m.used;
  out.memory_reserved_bytes = m.reserved;
}

// The optional functions the exporter's series need that `api` lacks (Nvml::missing_functions).
std::vector<std::string> missing_optional_symbols(const Nvml::Api& api);

}  // namespace cuprobe
