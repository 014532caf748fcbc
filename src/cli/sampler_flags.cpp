#include "cli/sampler_flags.h"

#include "cli/gpu_list.h"
#include "common/error.h"
#include "common/units.h"

namespace cuprobe {

CLI::Option* add_counter_source_option(CLI::App& app, std::string& text, const std::string& prefix) {
  if (text.empty()) text = "cupti";
  return app
      .add_option("--source", text,
                  prefix +
                      "where counters come from: cupti (PM sampling) or dcgm=URL (a dcgm-exporter's /metrics, "
                      "for when DCGM profiling holds the counters)")
      ->capture_default_str();
}

SamplerConfig sampler_config_from_flags(const std::string& gpu_text, const std::string& interval_text,
                                        const std::string& preset) {
  SamplerConfig config;
  config.gpus = parse_gpu_list(gpu_text);
  config.interval = parse_duration(interval_text);
  if (config.interval < std::chrono::milliseconds(1) || config.interval > std::chrono::seconds(10)) {
    throw Error("--interval " + interval_text + " is out of range (1ms to 10s)", kExitUsage);
  }
  config.preset = preset;
  return config;
}

}  // namespace cuprobe
