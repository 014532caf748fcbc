#include <ctime>

#include "common/clock.h"
#include "common/error.h"
#include "report/bench_result.h"

namespace cuprobe {

void set_identity_gpus(BenchIdentityInput& in, const DevicesReport& devices) {
  if (devices.gpus.empty()) {
    in.gpus_note = devices.error.empty() ? "no GPU found on this host" : devices.error;
    return;
  }
  in.gpus = nlohmann::ordered_json::array();
  for (const DeviceReport& d : devices.gpus) {
    in.gpus.push_back({{"index", d.index}, {"name", d.name}, {"uuid", d.uuid}, {"memory_total", d.memory_total}});
  }
}

nlohmann::ordered_json bench_identity_json(const BenchIdentityInput& in) {
  nlohmann::ordered_json j;
  j["cuprobe_version"] = in.version;
  j["host"] = in.host;
  j["start_time"] =
      clock_text(static_cast<std::time_t>(in.start_realtime_ns / 1'000'000'000), "%Y-%m-%dT%H:%M:%SZ", TimeZone::kUtc);
  j["start_ns"] = in.start_realtime_ns;
  if (!in.gpus.is_null()) j["gpus"] = in.gpus;
  if (!in.gpus_note.empty()) j["gpus_note"] = in.gpus_note;
  if (!in.label.empty()) j["label"] = in.label;
  nlohmann::ordered_json meta = nlohmann::ordered_json::object();
  for (const auto& [k, v] : in.metadata) meta[k] = v;
  j["metadata"] = std::move(meta);
  return j;
}

std::pair<std::string, std::string> parse_metadata(const std::string& text) {
  std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw Error("--metadata: '" + text + "' is not KEY=VALUE", kExitUsage);
  return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace cuprobe
