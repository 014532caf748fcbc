#include "cli/counter_flags.h"

#include "cli/gpu_list.h"
#include "collect/counters/metric_presets.h"
#include "common/error.h"
#include "common/units.h"

namespace cuprobe {

CLI::Option* add_gpu_flag(CLI::App& app, CounterFlags& flags, const std::string& help) {
  return app.add_option("--gpu", flags.gpu, help);
}

CLI::Option* add_interval_flag(CLI::App& app, CounterFlags& flags, const std::string& help) {
  return app.add_option("--interval", flags.interval, help);
}

CLI::Option* add_preset_flag(CLI::App& app, CounterFlags& flags, const std::string& help) {
  return app.add_option("--preset", flags.preset, help)->check(CLI::IsMember(preset_names()));
}

CLI::Option* add_source_flag(CLI::App& app, CounterFlags& flags, const std::string& prefix) {
  return app
      .add_option("--source", flags.source,
                  prefix +
                      "where counters come from: cupti (PM sampling) or dcgm=URL (a dcgm-exporter's /metrics, "
                      "for when DCGM profiling holds the counters)")
      ->capture_default_str();
}

CounterPlan plan_counters(const CounterFlags& flags) {
  CounterPlan plan;
  plan.config.gpus = parse_gpu_list(flags.gpu);
  plan.config.interval = parse_duration(flags.interval);
  if (plan.config.interval.count() <= 0) throw Error("--interval must be positive", kExitUsage);
  if (plan.config.interval < std::chrono::milliseconds(1) || plan.config.interval > std::chrono::seconds(10)) {
    throw Error("--interval " + flags.interval + " is out of range (1ms to 10s)", kExitUsage);
  }
  plan.config.preset = flags.preset;
  plan.source = parse_counter_source(flags.source);
  return plan;
}

}  // namespace cuprobe
