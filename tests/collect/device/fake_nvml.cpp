// A fake libnvidia-ml for tests: the NVML functions cuprobe binds, with fixed,
// per-device values, so that vital signs can be checked without a GPU. Loaded
// through CUPROBE_TEST_NVML_LIBRARY (or Nvml's library constructor).
//   CUPROBE_FAKE_NVML_GPUS=N          devices (default 2)
//   CUPROBE_FAKE_NVML_OLD_DRIVER=1    nvmlDeviceGetCurrentClocksEventReasons answers
//                                     NVML_ERROR_FUNCTION_NOT_FOUND (the throttle name answers)
//   CUPROBE_FAKE_NVML_XID=I:X         device I reports XID X once (the first nvmlEventSetWait_v2)
//   CUPROBE_FAKE_NVML_MIG=I           device I has MIG on, with GPU instances 9 (1g.18gb) and 2 (3g.71gb)
//   CUPROBE_FAKE_NVML_VGPU=1          devices are vGPU guests, licensed
//   CUPROBE_FAKE_NVML_NO_HEALTH=1     the health functions answer NVML_ERROR_NOT_SUPPORTED
// Device i: power 150.5 + 100 i W, SM 1980 MHz, memory 2619 MHz, 40 + i C, (i + 1) GiB used,
// 0.5 GiB reserved of 141 GiB, utilisation 50 + i %, memory utilisation 10 %, encoder 0 %,
// decoder 3 %, memory 55 + i C, clock event reasons 0x4 (sw_power_cap) on odd devices, 0x1
// (idle) else; energy 1000 J + 150 J per second since the library loaded; i correctable and 0
// uncorrectable remapped rows, no failure; 0 PCIe replays; NVLink (i + 1) MiB sent and received.
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3, kNotFound = 6, kTimeout = 10,
              kFunctionNotFound = 13;

int gpus() {
  const char* n = std::getenv("CUPROBE_FAKE_NVML_GPUS");
  return n ? std::atoi(n) : 2;
}

int index_of(void* dev) { return static_cast<int>(reinterpret_cast<long>(dev)) - 1; }

bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v && std::strcmp(v, value) == 0;
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

// MIG device handles: 0x10000 + 16 * device + slot + 1 (slots 0 and 1 hold instances).
constexpr long kMigBase = 0x10000;
struct MigSlot {
  unsigned gi_id;
  const char* profile;
  unsigned long long total_gib;
};
constexpr MigSlot kMigSlots[] = {{9, "1g.18gb", 18}, {2, "3g.71gb", 71}};
bool is_mig(void* dev) { return reinterpret_cast<long>(dev) >= kMigBase; }
int mig_parent(void* dev) { return static_cast<int>((reinterpret_cast<long>(dev) - kMigBase - 1) / 16); }
int mig_slot(void* dev) { return static_cast<int>((reinterpret_cast<long>(dev) - kMigBase - 1) % 16); }
bool mig_on(int device) { return env_int("CUPROBE_FAKE_NVML_MIG", -1) == device; }

double seconds_since_load() {
  static timespec start = [] {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t;
  }();
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec - start.tv_sec) + static_cast<double>(now.tv_nsec - start.tv_nsec) / 1e9;
}

bool valid(void* dev) { return index_of(dev) >= 0 && index_of(dev) < gpus(); }

struct Memory {
  unsigned long long total, free, used;
};
struct MemoryV2 {
  unsigned version;
  unsigned long long total, reserved, free, used;
};
struct Utilization {
  unsigned gpu, memory;
};
union Value {
  double d;
  unsigned ui;
  unsigned long ul;
  unsigned long long ull;
  long long sll;
};
struct FieldValue {
  unsigned fieldId, scopeId;
  long long timestamp, latencyUsec;
  int valueType, nvmlReturn;
  Value value;
};
struct EventData {
  void* device;
  unsigned long long eventType, eventData;
  unsigned gpuInstanceId, computeInstanceId;
};
struct LicensableFeature {
  int featureCode;
  unsigned featureState;
  char licenseInfo[128], productName[128];
  unsigned featureEnabled;
  unsigned year;
  unsigned short month, day, hour, min, sec, status;
};
struct LicensableFeatures {
  int isGridLicenseSupported;
  unsigned licensableFeaturesCount;
  LicensableFeature features[3];
};
struct PciInfo {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};

constexpr unsigned long long kGiB = 1ull << 30;

}  // namespace

extern "C" {

int nvmlInit_v2() { return kSuccess; }
const char* nvmlErrorString(int) { return "fake NVML error"; }
int nvmlSystemGetDriverVersion(char* buf, unsigned n) {
  std::snprintf(buf, n, "999.99.fake");
  return kSuccess;
}
int nvmlDeviceGetCount_v2(unsigned* n) {
  *n = static_cast<unsigned>(gpus());
  return kSuccess;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void** dev) {
  if (static_cast<int>(i) >= gpus()) return kInvalidArgument;
  *dev = reinterpret_cast<void*>(static_cast<long>(i) + 1);
  return kSuccess;
}
int nvmlDeviceGetName(void* dev, char* buf, unsigned n) {
  if (is_mig(dev)) {
    std::snprintf(buf, n, "NVIDIA H200 MIG %s", kMigSlots[mig_slot(dev)].profile);
    return kSuccess;
  }
  if (!valid(dev)) return kInvalidArgument;
  std::snprintf(buf, n, "NVIDIA H200 (fake)");
  return kSuccess;
}
int nvmlDeviceGetUUID(void* dev, char* buf, unsigned n) {
  if (is_mig(dev)) {
    std::snprintf(buf, n, "MIG-fa4e0000-0000-0000-%04d-%012d", mig_parent(dev), mig_slot(dev));
    return kSuccess;
  }
  if (!valid(dev)) return kInvalidArgument;
  std::snprintf(buf, n, "GPU-fa4e0000-0000-0000-0000-%012d", index_of(dev));
  return kSuccess;
}
int nvmlDeviceGetPciInfo_v3(void* dev, PciInfo* pci) {
  if (!valid(dev)) return kInvalidArgument;
  std::memset(pci, 0, sizeof *pci);
  std::snprintf(pci->busId, sizeof pci->busId, "00000000:%02X:00.0", 0x18 + index_of(dev));
  return kSuccess;
}
int nvmlDeviceGetMemoryInfo(void* dev, Memory* m) {
  if (!valid(dev)) return kInvalidArgument;
  m->total = 141 * kGiB;
  m->used = static_cast<unsigned long long>(index_of(dev) + 1) * kGiB;
  m->free = m->total - m->used;
  return kSuccess;
}
int nvmlDeviceGetMemoryInfo_v2(void* dev, MemoryV2* m) {
  if (is_mig(dev)) {
    m->total = kMigSlots[mig_slot(dev)].total_gib * kGiB;
    m->reserved = kGiB / 4;
    m->used = kGiB * static_cast<unsigned long long>(mig_slot(dev) + 1);
    m->free = m->total - m->used - m->reserved;
    return kSuccess;
  }
  if (!valid(dev)) return kInvalidArgument;
  m->total = 141 * kGiB;
  m->reserved = kGiB / 2;
  m->used = static_cast<unsigned long long>(index_of(dev) + 1) * kGiB;
  m->free = m->total - m->used - m->reserved;
  return kSuccess;
}
int nvmlDeviceGetUtilizationRates(void* dev, Utilization* u) {
  if (!valid(dev)) return kInvalidArgument;
  u->gpu = 50u + static_cast<unsigned>(index_of(dev));
  u->memory = 10;
  return kSuccess;
}
int nvmlDeviceGetPowerUsage(void* dev, unsigned* mw) {
  if (!valid(dev)) return kInvalidArgument;
  *mw = 150500u + 100000u * static_cast<unsigned>(index_of(dev));
  return kSuccess;
}
int nvmlDeviceGetClockInfo(void* dev, unsigned type, unsigned* mhz) {
  if (!valid(dev)) return kInvalidArgument;
  *mhz = type == 1 ? 1980 : type == 2 ? 2619 : 1755;
  return kSuccess;
}
int nvmlDeviceGetTemperature(void* dev, unsigned, unsigned* c) {
  if (!valid(dev)) return kInvalidArgument;
  *c = 40u + static_cast<unsigned>(index_of(dev));
  return kSuccess;
}
int nvmlDeviceGetCurrentClocksThrottleReasons(void* dev, unsigned long long* reasons) {
  if (!valid(dev)) return kInvalidArgument;
  *reasons = index_of(dev) % 2 ? 0x4 : 0x1;
  return kSuccess;
}
int nvmlDeviceGetCurrentClocksEventReasons(void* dev, unsigned long long* reasons) {
  const char* old = std::getenv("CUPROBE_FAKE_NVML_OLD_DRIVER");
  if (old && *old == '1') return kFunctionNotFound;
  return nvmlDeviceGetCurrentClocksThrottleReasons(dev, reasons);
}

int nvmlDeviceGetTotalEnergyConsumption(void* dev, unsigned long long* mj) {
  if (!valid(dev)) return kInvalidArgument;
  if (env_is("CUPROBE_FAKE_NVML_NO_HEALTH", "1")) return kNotSupported;
  *mj = 1000000ull + static_cast<unsigned long long>(seconds_since_load() * 150000.0);
  return kSuccess;
}
int nvmlDeviceGetPcieReplayCounter(void* dev, unsigned* n) {
  if (!valid(dev)) return kInvalidArgument;
  if (env_is("CUPROBE_FAKE_NVML_NO_HEALTH", "1")) return kNotSupported;
  *n = 0;
  return kSuccess;
}
int nvmlDeviceGetRemappedRows(void* dev, unsigned* corr, unsigned* unc, unsigned* pending, unsigned* failed) {
  if (!valid(dev)) return kInvalidArgument;
  if (env_is("CUPROBE_FAKE_NVML_NO_HEALTH", "1")) return kNotSupported;
  *corr = static_cast<unsigned>(index_of(dev));
  *unc = 0;
  *pending = 0;
  *failed = 0;
  return kSuccess;
}
int nvmlDeviceGetFieldValues(void* dev, int count, FieldValue* values) {
  if (!valid(dev)) return kInvalidArgument;
  for (int i = 0; i < count; ++i) {
    FieldValue& v = values[i];
    v.valueType = 3;  // unsigned long long
    v.nvmlReturn = env_is("CUPROBE_FAKE_NVML_NO_HEALTH", "1") ? kNotSupported : kSuccess;
    if (v.fieldId == 82) {
      v.valueType = 1;
      v.value.ui = 55u + static_cast<unsigned>(index_of(dev));
    } else if (v.fieldId == 138 || v.fieldId == 139) {
      v.value.ull = 1024ull * static_cast<unsigned long long>(index_of(dev) + 1);
    } else {
      v.nvmlReturn = kNotSupported;
    }
  }
  return kSuccess;
}
int nvmlDeviceGetEncoderUtilization(void* dev, unsigned* util, unsigned* period_us) {
  if (!valid(dev)) return kInvalidArgument;
  *util = 0;
  *period_us = 167000;
  return kSuccess;
}
int nvmlDeviceGetDecoderUtilization(void* dev, unsigned* util, unsigned* period_us) {
  if (!valid(dev)) return kInvalidArgument;
  *util = 3;
  *period_us = 167000;
  return kSuccess;
}
int nvmlDeviceGetVirtualizationMode(void* dev, unsigned* mode) {
  if (!valid(dev)) return kInvalidArgument;
  *mode = env_is("CUPROBE_FAKE_NVML_VGPU", "1") ? 2 : 0;
  return kSuccess;
}
int nvmlDeviceGetGridLicensableFeatures_v4(void* dev, LicensableFeatures* f) {
  if (!valid(dev)) return kInvalidArgument;
  std::memset(f, 0, sizeof *f);
  f->isGridLicenseSupported = 1;
  f->licensableFeaturesCount = 1;
  f->features[0].featureEnabled = 1;
  return kSuccess;
}

// XID events: one event set; the configured XID once, then timeouts.
static int event_set_token;
int nvmlEventSetCreate(void** set) {
  *set = &event_set_token;
  return kSuccess;
}
int nvmlDeviceRegisterEvents(void* dev, unsigned long long, void*) { return valid(dev) ? kSuccess : kNotSupported; }
int nvmlEventSetWait_v2(void*, EventData* data, unsigned timeout_ms) {
  static bool delivered = false;
  const char* xid = std::getenv("CUPROBE_FAKE_NVML_XID");
  int device = 0, code = 0;
  if (!delivered && xid && std::sscanf(xid, "%d:%d", &device, &code) == 2 && device < gpus()) {
    delivered = true;
    data->device = reinterpret_cast<void*>(static_cast<long>(device) + 1);
    data->eventType = 0x8;
    data->eventData = static_cast<unsigned long long>(code);
    data->gpuInstanceId = data->computeInstanceId = 0xFFFFFFFFu;
    return kSuccess;
  }
  unsigned nap_ms = timeout_ms < 100 ? timeout_ms : 100;
  timespec nap{0, static_cast<long>(nap_ms) * 1000000L};
  nanosleep(&nap, nullptr);
  return kTimeout;
}
int nvmlEventSetFree(void*) { return kSuccess; }

// MIG.
int nvmlDeviceGetMigMode(void* dev, unsigned* current, unsigned* pending) {
  if (!valid(dev)) return kInvalidArgument;
  *current = *pending = mig_on(index_of(dev)) ? 1 : 0;
  return kSuccess;
}
int nvmlDeviceGetMaxMigDeviceCount(void* dev, unsigned* n) {
  if (!valid(dev)) return kInvalidArgument;
  *n = 7;
  return kSuccess;
}
int nvmlDeviceGetMigDeviceHandleByIndex(void* dev, unsigned i, void** mig) {
  if (!valid(dev) || !mig_on(index_of(dev))) return kInvalidArgument;
  if (i >= sizeof kMigSlots / sizeof kMigSlots[0]) return kNotFound;
  *mig = reinterpret_cast<void*>(kMigBase + 16L * index_of(dev) + static_cast<long>(i) + 1);
  return kSuccess;
}
int nvmlDeviceGetGpuInstanceId(void* dev, unsigned* id) {
  if (!is_mig(dev)) return kInvalidArgument;
  *id = kMigSlots[mig_slot(dev)].gi_id;
  return kSuccess;
}

}  // extern "C"
