#include "collect/device/device_inventory.h"

#include <cstdio>
#include <fstream>

#include "collect/counters/counter_refusal.h"
#include "collect/device/cuda_driver.h"
#include "collect/device/nvml.h"
#include "common/units.h"

namespace cuprobe {
namespace {

std::string process_name(unsigned pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  if (!in || !std::getline(in, name) || name.empty()) return "?";
  return name;
}

}  // namespace

DevicesReport collect_devices(PmBackend* backend) {
  DevicesReport report;
  CudaDriver& driver = CudaDriver::instance();
  Nvml& nvml = Nvml::instance();
  report.driver_version = nvml.driver_version();
  report.cuda_driver_version = driver.driver_version();
  if (!driver.loaded() || (driver.init_result() != 0 && driver.init_result() != CudaDriver::kErrorNoDevice)) {
    report.error_status = CounterStatus::kNoDriver;
    report.error = counter_refusal_message({CounterStatus::kNoDriver, driver.error()}, -1);
    return report;
  }
  int count = driver.device_count();
  if (count <= 0) {
    report.error_status = CounterStatus::kNoGpu;
    report.error = counter_refusal_message({CounterStatus::kNoGpu, driver.error()}, -1);
    return report;
  }
  BackendStatus init = backend ? backend->initialize() : BackendStatus{CounterStatus::kOther, "built without CUPTI"};
  for (int i = 0; i < count; ++i) {
    DeviceReport d;
    d.index = i;
    d.name = driver.device_name(i);
    d.pci_bus_id = driver.pci_bus_id(i);
    d.sm_count = driver.attribute(CudaDriver::kAttrMultiprocessorCount, i);
    d.compute_capability_major = driver.attribute(CudaDriver::kAttrComputeCapabilityMajor, i);
    d.compute_capability_minor = driver.attribute(CudaDriver::kAttrComputeCapabilityMinor, i);
    d.memory_total = driver.total_memory(i);
    d.uuid = driver.uuid(i);  // NVML's, below, when it answers
    int n = nvml.ok() ? nvml.index_of_pci_bus_id(d.pci_bus_id) : -1;
    NvmlDeviceInfo info;
    if (n >= 0 && nvml.device(n, info)) {
      if (!info.uuid.empty()) d.uuid = info.uuid;
      d.memory_total = info.memory_total ? info.memory_total : d.memory_total;
      d.memory_used = info.memory_used;
      d.utilization_gpu = info.utilization_gpu;
      for (const auto& p : info.processes) d.processes.push_back({p.pid, p.used_bytes, process_name(p.pid)});
    }
    BackendStatus st = init;
    if (st.ok()) {
      std::string chip;
      st = backend->chip_name(i, chip);
      d.chip = chip;
      if (st.ok()) st = backend->probe(i);
    }
    d.counters = st.code;
    if (!st.ok()) d.counters_reason = counter_refusal_message(st, i, d.chip);
    report.gpus.push_back(std::move(d));
  }
  if (!nvml.ok()) {
    for (auto& d : report.gpus) d.memory_used = 0;
    report.error = "NVML unavailable (" + nvml.error() + "): memory used and processes unknown";
  }
  return report;
}

IdleCheck check_idle(const DevicesReport& report, std::uint64_t max_idle_bytes) {
  IdleCheck check;
  if (report.gpus.empty()) {
    check.idle = false;
    check.reasons.push_back(report.error.empty() ? "no GPU listed" : report.error);
    return check;
  }
  for (const auto& d : report.gpus) {
    std::string why;
    if (!d.processes.empty()) {
      why = std::to_string(d.processes.size()) + " process(es) (";
      for (std::size_t i = 0; i < d.processes.size(); ++i) {
        if (i) why += ", ";
        why += std::to_string(d.processes[i].pid) + " " + d.processes[i].name;
      }
      why += ")";
    }
    if (d.memory_used > max_idle_bytes) {
      if (!why.empty()) why += ", ";
      why += format_mib(d.memory_used) + " memory used";
    }
    if (!why.empty()) {
      check.idle = false;
      check.reasons.push_back("GPU " + std::to_string(d.index) + " busy: " + why);
    }
  }
  return check;
}

}  // namespace cuprobe
