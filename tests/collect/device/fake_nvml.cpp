// A fake libnvidia-ml for tests: the NVML functions cuprobe binds, with fixed,
// per-device values, so that vital signs can be checked without a GPU. Loaded
// through CUPROBE_TEST_NVML_LIBRARY (or Nvml's library constructor).
//   CUPROBE_FAKE_NVML_GPUS=N          devices (default 2)
//   CUPROBE_FAKE_NVML_OLD_DRIVER=1    nvmlDeviceGetCurrentClocksEventReasons answers
//                                     NVML_ERROR_FUNCTION_NOT_FOUND (the throttle name answers)
// Device i: power 150.5 + 100 i W, SM 1980 MHz, memory 2619 MHz, 40 + i C, (i + 1) GiB used,
// utilisation 50 + i %, clock event reasons 0x4 (sw_power_cap) on odd devices, 0x1 (idle) else.
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kSuccess = 0, kInvalidArgument = 2, kFunctionNotFound = 13;

int gpus() {
  const char* n = std::getenv("CUPROBE_FAKE_NVML_GPUS");
  return n ? std::atoi(n) : 2;
}

int index_of(void* dev) { return static_cast<int>(reinterpret_cast<long>(dev)) - 1; }

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
  if (!valid(dev)) return kInvalidArgument;
  std::snprintf(buf, n, "NVIDIA H200 (fake)");
  return kSuccess;
}
int nvmlDeviceGetUUID(void* dev, char* buf, unsigned n) {
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

}  // extern "C"
