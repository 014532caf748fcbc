#include "collect/device/nvml.h"

#include <cctype>
#include <cstring>

#include "common/shared_library.h"

namespace cuprobe {
namespace {

// From NVML's public ABI (nvml.h, not shipped with this toolkit).
using nvmlDevice_t = void*;
using nvmlReturn_t = int;
constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr nvmlReturn_t kNvmlInsufficientSize = 7;

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
constexpr unsigned int kMemoryV2Version = static_cast<unsigned int>(sizeof(nvmlMemory_v2_t)) | (2u << 24);
constexpr unsigned long long kNotAvailable = ~0ull;

struct Api {
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
};

Api g_api;

void list_processes(nvmlReturn_t (*fn)(nvmlDevice_t, unsigned*, nvmlProcessInfo_t*), nvmlDevice_t dev, bool compute,
                    std::vector<NvmlProcess>& out) {
  if (!fn) return;
  std::vector<nvmlProcessInfo_t> procs(64);
  unsigned n = static_cast<unsigned>(procs.size());
  nvmlReturn_t r = fn(dev, &n, procs.data());
  if (r == kNvmlInsufficientSize) {
    procs.resize(n + 16);
    n = static_cast<unsigned>(procs.size());
    r = fn(dev, &n, procs.data());
  }
  if (r != kNvmlSuccess) return;
  for (unsigned i = 0; i < n && i < procs.size(); ++i) {
    bool seen = false;
    for (auto& p : out) {
      if (p.pid == procs[i].pid) seen = true;
    }
    if (seen) continue;
    NvmlProcess p;
    p.pid = procs[i].pid;
    p.used_bytes = procs[i].usedGpuMemory == kNotAvailable ? 0 : procs[i].usedGpuMemory;
    p.compute = compute;
    out.push_back(p);
  }
}

}  // namespace

std::string normalize_pci_bus_id(const std::string& id) {
  std::string s;
  for (char c : id) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto colon = s.find(':');
  if (colon != std::string::npos && colon > 4) s = s.substr(colon - 4);
  return s;
}

Nvml& Nvml::instance() {
  static Nvml nvml;
  return nvml;
}

Nvml::Nvml() {
  OpenedLibrary lib = open_library({"libnvidia-ml.so.1"}, RTLD_NOW | RTLD_LOCAL);
  handle_ = lib.handle;
  if (!lib) {
    error_ = lib.error;
    return;
  }
  error_ = resolve_symbols(
      lib,
      {required_symbol("nvmlInit_v2", g_api.init), optional_symbol("nvmlErrorString", g_api.error_string),
       optional_symbol("nvmlSystemGetDriverVersion", g_api.system_driver_version),
       required_symbol("nvmlDeviceGetCount_v2", g_api.count),
       required_symbol("nvmlDeviceGetHandleByIndex_v2", g_api.by_index),
       optional_symbol("nvmlDeviceGetHandleByPciBusId_v2", g_api.by_pci),
       optional_symbol("nvmlDeviceGetName", g_api.name), optional_symbol("nvmlDeviceGetUUID", g_api.uuid),
       optional_symbol("nvmlDeviceGetPciInfo_v3", g_api.pci), optional_symbol("nvmlDeviceGetMemoryInfo", g_api.memory),
       optional_symbol("nvmlDeviceGetMemoryInfo_v2", g_api.memory_v2),
       optional_symbol("nvmlDeviceGetUtilizationRates", g_api.utilization),
       optional_symbol("nvmlDeviceGetComputeRunningProcesses_v3", g_api.compute_procs),
       optional_symbol("nvmlDeviceGetGraphicsRunningProcesses_v3", g_api.graphics_procs)});
  if (!error_.empty()) return;
  nvmlReturn_t r = g_api.init();
  if (r != kNvmlSuccess) {
    error_ = std::string("nvmlInit: ") + (g_api.error_string ? g_api.error_string(r) : std::to_string(r).c_str());
    return;
  }
  ok_ = true;
}

std::string Nvml::driver_version() const {
  char buf[96] = {};
  if (!ok_ || !g_api.system_driver_version || g_api.system_driver_version(buf, sizeof buf - 1) != kNvmlSuccess) {
    return "";
  }
  return buf;
}

int Nvml::device_count() const {
  unsigned n = 0;
  if (!ok_ || g_api.count(&n) != kNvmlSuccess) return 0;
  return static_cast<int>(n);
}

int Nvml::index_of_pci_bus_id(const std::string& bus_id) const {
  int n = device_count();
  for (int i = 0; i < n; ++i) {
    NvmlDeviceInfo info;
    if (device(i, info) && info.pci_bus_id == normalize_pci_bus_id(bus_id)) return i;
  }
  return -1;
}

bool Nvml::device(int index, NvmlDeviceInfo& info) const {
  nvmlDevice_t dev = nullptr;
  if (!ok_ || g_api.by_index(static_cast<unsigned>(index), &dev) != kNvmlSuccess) return false;
  char buf[256] = {};
  if (g_api.name && g_api.name(dev, buf, sizeof buf - 1) == kNvmlSuccess) info.name = buf;
  std::memset(buf, 0, sizeof buf);
  if (g_api.uuid && g_api.uuid(dev, buf, sizeof buf - 1) == kNvmlSuccess) info.uuid = buf;
  nvmlPciInfo_t pci{};
  if (g_api.pci && g_api.pci(dev, &pci) == kNvmlSuccess) {
    pci.busId[sizeof pci.busId - 1] = 0;
    info.pci_bus_id = normalize_pci_bus_id(pci.busId);
  }
  nvmlMemory_v2_t m2{};
  m2.version = kMemoryV2Version;
  nvmlMemory_t m1{};
  if (g_api.memory_v2 && g_api.memory_v2(dev, &m2) == kNvmlSuccess) {
    info.memory_total = m2.total;
    info.memory_used = m2.used;
    info.memory_reserved = m2.reserved;
  } else if (g_api.memory && g_api.memory(dev, &m1) == kNvmlSuccess) {
    info.memory_total = m1.total;
    info.memory_used = m1.used;
  }
  nvmlUtilization_t u{};
  if (g_api.utilization && g_api.utilization(dev, &u) == kNvmlSuccess) info.utilization_gpu = static_cast<int>(u.gpu);
  list_processes(g_api.compute_procs, dev, true, info.processes);
  list_processes(g_api.graphics_procs, dev, false, info.processes);
  return true;
}

}  // namespace cuprobe
