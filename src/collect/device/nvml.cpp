#include "collect/device/nvml.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "collect/device/nvml_api.h"
#include "common/shared_library.h"

namespace cuprobe {
namespace {

constexpr unsigned long long kNotAvailable = ~0ull;

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

namespace {

// Memory total/used/reserved into `info`; false when NVML could not tell.
bool read_memory(const Nvml::Api& api, nvmlDevice_t dev, NvmlDeviceInfo& info) {
  NvmlMemoryBytes m = read_memory_bytes(api, dev);
  if (std::isnan(m.total)) return false;
  info.memory_total = static_cast<std::uint64_t>(m.total);
  info.memory_used = static_cast<std::uint64_t>(m.used);
  if (!std::isnan(m.reserved)) info.memory_reserved = static_cast<std::uint64_t>(m.reserved);
  return true;
}

}  // namespace

std::string normalize_pci_bus_id(const std::string& id) {
  std::string s;
  for (char c : id) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto colon = s.find(':');
  if (colon != std::string::npos && colon > 4) s = s.substr(colon - 4);
  return s;
}

const std::vector<ClockEventReason>& clock_event_reasons() {
  static const std::vector<ClockEventReason> reasons = {{0x1, "gpu_idle"},
                                                        {0x2, "applications_clocks_setting"},
                                                        {0x4, "sw_power_cap"},
                                                        {0x8, "hw_slowdown"},
                                                        {0x10, "sync_boost"},
                                                        {0x20, "sw_thermal_slowdown"},
                                                        {0x40, "hw_thermal_slowdown"},
                                                        {0x80, "hw_power_brake_slowdown"},
                                                        {0x100, "display_clock_setting"}};
  return reasons;
}

Nvml& Nvml::instance() {
  static const char* test_library = std::getenv("CUPROBE_TEST_NVML_LIBRARY");
  static Nvml nvml(test_library && *test_library ? test_library : "libnvidia-ml.so.1");
  return nvml;
}

Nvml::~Nvml() = default;

Nvml::Nvml(const char* library) : api_(std::make_unique<Api>()) {
  Api& api = *api_;
  OpenedLibrary lib = open_library({library}, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    error_ = lib.error;
    return;
  }
  error_ =
      resolve_symbols(lib, {required_symbol("nvmlInit_v2", api.init),
                            optional_symbol("nvmlErrorString", api.error_string),
                            optional_symbol("nvmlSystemGetDriverVersion", api.system_driver_version),
                            required_symbol("nvmlDeviceGetCount_v2", api.count),
                            required_symbol("nvmlDeviceGetHandleByIndex_v2", api.by_index),
                            optional_symbol("nvmlDeviceGetHandleByPciBusId_v2", api.by_pci),
                            optional_symbol("nvmlDeviceGetName", api.name),
                            optional_symbol("nvmlDeviceGetUUID", api.uuid),
                            optional_symbol("nvmlDeviceGetPciInfo_v3", api.pci),
                            optional_symbol("nvmlDeviceGetMemoryInfo", api.memory),
                            optional_symbol("nvmlDeviceGetMemoryInfo_v2", api.memory_v2),
                            optional_symbol("nvmlDeviceGetUtilizationRates", api.utilization),
                            optional_symbol("nvmlDeviceGetComputeRunningProcesses_v3", api.compute_procs),
                            optional_symbol("nvmlDeviceGetGraphicsRunningProcesses_v3", api.graphics_procs),
                            optional_symbol("nvmlDeviceGetPowerUsage", api.power),
                            optional_symbol("nvmlDeviceGetClockInfo", api.clock),
                            optional_symbol("nvmlDeviceGetTemperature", api.temperature),
                            optional_symbol("nvmlDeviceGetCurrentClocksEventReasons", api.clock_events),
                            optional_symbol("nvmlDeviceGetCurrentClocksThrottleReasons", api.clock_throttle),
                            optional_symbol("nvmlDeviceGetTotalEnergyConsumption", api.energy),
                            optional_symbol("nvmlDeviceGetPcieReplayCounter", api.pcie_replays),
                            optional_symbol("nvmlDeviceGetRemappedRows", api.remapped_rows),
                            optional_symbol("nvmlDeviceGetFieldValues", api.field_values),
                            optional_symbol("nvmlDeviceGetEncoderUtilization", api.encoder_util),
                            optional_symbol("nvmlDeviceGetDecoderUtilization", api.decoder_util),
                            optional_symbol("nvmlDeviceGetVirtualizationMode", api.virtualization_mode),
                            optional_symbol("nvmlDeviceGetGridLicensableFeatures_v4", api.grid_licensable_features),
                            optional_symbol("nvmlEventSetCreate", api.event_set_create),
                            optional_symbol("nvmlDeviceRegisterEvents", api.register_events),
                            optional_symbol("nvmlEventSetWait_v2", api.event_set_wait),
                            optional_symbol("nvmlEventSetFree", api.event_set_free),
                            optional_symbol("nvmlDeviceGetMigMode", api.mig_mode),
                            optional_symbol("nvmlDeviceGetMaxMigDeviceCount", api.max_mig_devices),
                            optional_symbol("nvmlDeviceGetMigDeviceHandleByIndex", api.mig_device_by_index),
                            optional_symbol("nvmlDeviceGetGpuInstanceId", api.gpu_instance_id)});
  if (!error_.empty()) return;
  missing_ = missing_optional_symbols(api);
  nvmlReturn_t r = api.init();
  if (r != kNvmlSuccess) {
    error_ = std::string("nvmlInit: ") + (api.error_string ? api.error_string(r) : std::to_string(r).c_str());
    return;
  }
  ok_ = true;
}

std::string Nvml::driver_version() const {
  const Api& api = *api_;
  char buf[96] = {};
  if (!ok_ || !api.system_driver_version || api.system_driver_version(buf, sizeof buf - 1) != kNvmlSuccess) {
    return "";
  }
  return buf;
}

int Nvml::device_count() const {
  unsigned n = 0;
  if (!ok_ || api_->count(&n) != kNvmlSuccess) return 0;
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
  const Api& api = *api_;
  nvmlDevice_t dev = nullptr;
  if (!ok_ || api.by_index(static_cast<unsigned>(index), &dev) != kNvmlSuccess) return false;
  char buf[256] = {};
  if (api.name && api.name(dev, buf, sizeof buf - 1) == kNvmlSuccess) info.name = buf;
  std::memset(buf, 0, sizeof buf);
  if (api.uuid && api.uuid(dev, buf, sizeof buf - 1) == kNvmlSuccess) info.uuid = buf;
  nvmlPciInfo_t pci{};
  if (api.pci && api.pci(dev, &pci) == kNvmlSuccess) {
    pci.busId[sizeof pci.busId - 1] = 0;
    info.nvml_pci_bus_id = pci.busId;
    info.pci_bus_id = normalize_pci_bus_id(pci.busId);
  }
  read_memory(api, dev, info);
  nvmlUtilization_t u{};
  if (api.utilization && api.utilization(dev, &u) == kNvmlSuccess) info.utilization_gpu = static_cast<int>(u.gpu);
  list_processes(api.compute_procs, dev, true, info.processes);
  list_processes(api.graphics_procs, dev, false, info.processes);
  return true;
}

bool Nvml::vitals(int index, NvmlVitals& out) const {
  const Api& api = *api_;
  nvmlDevice_t dev = nullptr;
  if (!ok_ || api.by_index(static_cast<unsigned>(index), &dev) != kNvmlSuccess) return false;
  out = NvmlVitals{};
  unsigned v = 0;
  if (api.power && api.power(dev, &v) == kNvmlSuccess) out.power_w = v / 1000.0;
  if (api.clock && api.clock(dev, kClockSm, &v) == kNvmlSuccess) out.sm_clock_mhz = v;
  if (api.clock && api.clock(dev, kClockMem, &v) == kNvmlSuccess) out.memory_clock_mhz = v;
  if (api.temperature && api.temperature(dev, kTemperatureGpu, &v) == kNvmlSuccess) out.temperature_c = v;
  // The "clocks event" name replaced "clocks throttle" in NVML 12.2; older drivers have only the latter.
  unsigned long long reasons = 0;
  if ((api.clock_events && api.clock_events(dev, &reasons) == kNvmlSuccess) ||
      (api.clock_throttle && api.clock_throttle(dev, &reasons) == kNvmlSuccess)) {
    out.clock_event_reasons = static_cast<double>(reasons);
  }
  NvmlDeviceInfo memory;
  if (read_memory(api, dev, memory)) out.memory_used_bytes = static_cast<double>(memory.memory_used);
  nvmlUtilization_t u{};
  if (api.utilization && api.utilization(dev, &u) == kNvmlSuccess) out.gpu_utilization_pct = u.gpu;
  return true;
}

}  // namespace cuprobe
