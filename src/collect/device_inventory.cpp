#include "collect/device_inventory.h"

#include <cstdio>
#include <fstream>

#include "collect/counter_refusal.h"
#include "collect/cuda_driver.h"
#include "collect/nvml.h"

namespace cuprobe {
namespace {

std::string process_name(unsigned pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  if (!in || !std::getline(in, name) || name.empty()) return "?";
  return name;
}

std::string mib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
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
  BackendStatus init = backend ? backend->initialize()
                               : BackendStatus{CounterStatus::kOther, "built without CUPTI"};
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

nlohmann::json devices_json(const DevicesReport& report) {
  nlohmann::json j;
  j["schema"] = "cuprobe.devices/1";
  j["driver_version"] = report.driver_version.empty() ? nlohmann::json() : nlohmann::json(report.driver_version);
  j["cuda_driver_version"] = report.cuda_driver_version;
  if (!report.error.empty()) {
    j["error"] = report.error;
    j["error_status"] = counter_status_name(report.error_status);
  }
  j["gpus"] = nlohmann::json::array();
  for (const auto& d : report.gpus) {
    nlohmann::json g;
    g["index"] = d.index;
    g["name"] = d.name;
    g["chip"] = d.chip.empty() ? nlohmann::json() : nlohmann::json(d.chip);
    g["uuid"] = d.uuid.empty() ? nlohmann::json() : nlohmann::json(d.uuid);
    g["pci_bus_id"] = d.pci_bus_id;
    g["sm_count"] = d.sm_count;
    g["compute_capability"] = std::to_string(d.compute_capability_major) + "." +
                              std::to_string(d.compute_capability_minor);
    g["memory_total_bytes"] = d.memory_total;
    g["memory_used_bytes"] = d.memory_used;
    g["utilization_gpu_pct"] = d.utilization_gpu >= 0 ? nlohmann::json(d.utilization_gpu) : nlohmann::json();
    g["processes"] = nlohmann::json::array();
    for (const auto& p : d.processes) {
      g["processes"].push_back({{"pid", p.pid}, {"name", p.name}, {"used_bytes", p.used_bytes}});
    }
    g["counters"] = {{"readable", d.counters == CounterStatus::kOk},
                     {"status", counter_status_name(d.counters)},
                     {"reason", d.counters_reason.empty() ? nlohmann::json() : nlohmann::json(d.counters_reason)}};
    j["gpus"].push_back(std::move(g));
  }
  return j;
}

std::string format_devices(const DevicesReport& report) {
  std::string out;
  char line[512];
  if (!report.driver_version.empty() || report.cuda_driver_version) {
    std::snprintf(line, sizeof line, "driver %s (CUDA %d.%d)\n", report.driver_version.c_str(),
                  report.cuda_driver_version / 1000, report.cuda_driver_version % 1000 / 10);
    out += line;
  }
  for (const auto& d : report.gpus) {
    std::snprintf(line, sizeof line, "GPU %d  %s  chip %s  sm_%d%d  %d SMs  memory %s used / %s  bus %s\n", d.index,
                  d.name.c_str(), d.chip.empty() ? "?" : d.chip.c_str(), d.compute_capability_major,
                  d.compute_capability_minor, d.sm_count, mib(d.memory_used).c_str(), mib(d.memory_total).c_str(),
                  d.pci_bus_id.c_str());
    out += line;
    if (d.processes.empty()) {
      out += "  processes: none\n";
    } else {
      for (const auto& p : d.processes) {
        std::snprintf(line, sizeof line, "  process %u %s  %s\n", p.pid, p.name.c_str(), mib(p.used_bytes).c_str());
        out += line;
      }
    }
    out += d.counters == CounterStatus::kOk ? std::string("  counters: readable\n")
                                            : "  counters: NOT readable: " + d.counters_reason + "\n";
  }
  if (!report.error.empty() && !report.gpus.empty()) out += report.error + "\n";
  return out;
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
      why += mib(d.memory_used) + " memory used";
    }
    if (!why.empty()) {
      check.idle = false;
      check.reasons.push_back("GPU " + std::to_string(d.index) + " busy: " + why);
    }
  }
  return check;
}

}  // namespace cuprobe
