// cuprobe devices: what GPUs are here, are they idle, can counters be read?
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "cli/parse_args.h"
#include "cli/verb.h"
#include "collect/counters/counter_refusal.h"
#include "collect/device/device_inventory.h"
#include "common/error.h"
#include "common/say.h"
#include "common/units.h"
#include "report/devices_report.h"

namespace cuprobe {
namespace {

struct DevicesFlags {
  bool json = false, require_idle = false;
  std::string max_idle_memory = "256MiB";
};

void declare(CLI::App& app, DevicesFlags& f) {
  app.add_flag("--json", f.json, "print JSON (schema cuprobe.devices/1)");
  app.add_flag("--require-idle", f.require_idle,
               "exit 4 when any GPU runs a process or holds more than --max-idle-memory");
  app.add_option("--max-idle-memory", f.max_idle_memory, "memory in use still counted as idle")->capture_default_str();
}

struct DevicesPlan {
  bool json = false;
  std::optional<std::uint64_t> max_idle;  // --require-idle
};

DevicesPlan plan(const DevicesFlags& f) {
  DevicesPlan p{f.json, std::nullopt};
  std::uint64_t max_idle = parse_size(f.max_idle_memory);
  if (f.require_idle) p.max_idle = max_idle;
  return p;
}

int run(const DevicesPlan& p) {
  auto backend = make_cupti_backend();
  DevicesReport report = collect_devices(backend.get());
  backend.reset();
  std::string out = p.json ? devices_json(report).dump(2) + "\n" : format_devices(report);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (report.gpus.empty()) {
    throw Error(report.error.empty() ? "no GPU found" : report.error, counter_refusal_exit_code(report.error_status));
  }
  if (p.max_idle) {
    IdleCheck idle = check_idle(report, *p.max_idle);
    for (const auto& r : idle.reasons) say("devices", "%s", r.c_str());
    if (!idle.idle) return kExitThresholdTripped;
  }
  return kExitOk;
}

int run_devices(int argc, char** argv) {
  CLI::App app{
      "Lists each GPU: index, name, chip, SMs, memory, the processes holding it, and whether its "
      "hardware counters can be read (and if not, why).",
      "cuprobe devices"};
  return declare_plan_run<DevicesFlags>(app, argc, argv, declare, plan, run);
}

const VerbRegistration kRegistration{"devices", "list GPUs, whether they are idle, whether counters can be read",
                                     &run_devices};

}  // namespace
}  // namespace cuprobe
