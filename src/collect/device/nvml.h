// The few NVML calls `cuprobe devices` makes, through dlopen("libnvidia-ml.so.1")
// (the toolkit ships no NVML header; the driver ships the library).
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
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
  std::string nvml_pci_bus_id;  // as NVML spells it ("00000000:18:00.0"), for labels that match DCGM's
};

// A GPU's vital signs at one moment; NaN where NVML could not tell (never 0 for "unknown").
struct NvmlVitals {
  double power_w = NAN;
  double sm_clock_mhz = NAN, memory_clock_mhz = NAN;
  double temperature_c = NAN;
  double memory_used_bytes = NAN;
  double gpu_utilization_pct = NAN;
  // nvmlClocksEventReasons bits (formerly "throttle reasons"); NaN when unknown.
  double clock_event_reasons = NAN;
};

class Nvml {
 public:
  // Loads and initializes once; never throws. The library is libnvidia-ml.so.1, or the
  // file named by CUPROBE_TEST_NVML_LIBRARY (test-only: the tests' fake NVML).
  static Nvml& instance();
  // Another copy of NVML's API from `library` (tests load their fake this way).
  explicit Nvml(const char* library);
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;
  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  std::string driver_version() const;
  int device_count() const;
  bool device(int index, NvmlDeviceInfo& info) const;
  // Index of the device with this PCI bus id ("0000:18:00.0"), or -1.
  int index_of_pci_bus_id(const std::string& bus_id) const;
  // Power, clocks, temperature, clock event reasons, memory used, utilisation; false when the
  // device cannot be opened (fields NVML does not support stay NaN).
  bool vitals(int index, NvmlVitals& out) const;
  // The optional functions behind the exporter's health, XID and MIG series that this
  // library lacks (an older driver), by NVML name: each leaves its series absent.
  const std::vector<std::string>& missing_functions() const { return missing_; }

  struct Api;  // the resolved functions (nvml_api.h)
  const Api& api() const { return *api_; }

 private:
  bool ok_ = false;
  std::string error_;
  std::unique_ptr<Api> api_;
  std::vector<std::string> missing_;
};

// Names of the set bits of an nvmlClocksEventReasons mask, e.g. {"gpu_idle", "sw_power_cap"}.
struct ClockEventReason {
  unsigned long long bit;
  const char* name;
};
const std::vector<ClockEventReason>& clock_event_reasons();

// "0000:18:00.0" from NVML's "00000000:18:00.0" (or any domain width), lowercased.
std::string normalize_pci_bus_id(const std::string& id);

}  // namespace cuprobe
