// cuprobe devices: what GPUs are here, are they idle, can counters be read?
#include <cstdio>
#include <string>

#include "cli/parse_args.h"
#include "cli/verb.h"
#include "collect/counters/counter_refusal.h"
#include "collect/device/device_inventory.h"
#include "common/error.h"
#include "common/units.h"
#include "report/devices_report.h"

namespace cuprobe {
namespace {

int run_devices(int argc, char** argv) {
  CLI::App app{
      "Lists each GPU: index, name, chip, SMs, memory, the processes holding it, and whether its "
      "hardware counters can be read (and if not, why).",
      "cuprobe devices"};
  bool json = false, require_idle = false;
  std::string max_idle_memory = "256MiB";
  app.add_flag("--json", json, "print JSON (schema cuprobe.devices/1)");
  app.add_flag("--require-idle", require_idle,
               "exit 4 when any GPU runs a process or holds more than --max-idle-memory");
  app.add_option("--max-idle-memory", max_idle_memory, "memory in use still counted as idle")->capture_default_str();
  if (auto code = parse_args(app, argc, argv)) return *code;
  std::uint64_t max_idle = parse_size(max_idle_memory);

  auto backend = make_cupti_backend();
  DevicesReport report = collect_devices(backend.get());
  backend.reset();
  std::string out = json ? devices_json(report).dump(2) + "\n" : format_devices(report);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (report.gpus.empty()) {
    throw Error(report.error.empty() ? "no GPU found" : report.error, counter_refusal_exit_code(report.error_status));
  }
  if (require_idle) {
    IdleCheck idle = check_idle(report, max_idle);
    for (const auto& r : idle.reasons) std::fprintf(stderr, "cuprobe devices: %s\n", r.c_str());
    if (!idle.idle) return kExitThresholdTripped;
  }
  return kExitOk;
}

const VerbRegistration kRegistration{"devices", "list GPUs, whether they are idle, whether counters can be read",
                                     &run_devices};

}  // namespace
}  // namespace cuprobe
