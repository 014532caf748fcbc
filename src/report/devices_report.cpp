#include "report/devices_report.h"

#include <cstdio>

#include "collect/counters/counter_refusal.h"
#include "common/units.h"

namespace cuprobe {

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
    g["compute_capability"] =
        std::to_string(d.compute_capability_major) + "." + std::to_string(d.compute_capability_minor);
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
                  d.compute_capability_minor, d.sm_count, format_mib(d.memory_used).c_str(),
                  format_mib(d.memory_total).c_str(), d.pci_bus_id.c_str());
    out += line;
    if (d.processes.empty()) {
      out += "  processes: none\n";
    } else {
      for (const auto& p : d.processes) {
        std::snprintf(line, sizeof line, "  process %u %s  %s\n", p.pid, p.name.c_str(),
                      format_mib(p.used_bytes).c_str());
        out += line;
      }
    }
    out += d.counters == CounterStatus::kOk ? std::string("  counters: readable\n")
                                            : "  counters: NOT readable: " + d.counters_reason + "\n";
  }
  if (!report.error.empty() && !report.gpus.empty()) out += report.error + "\n";
  return out;
}

}  // namespace cuprobe
