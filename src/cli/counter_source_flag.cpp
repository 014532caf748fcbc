#include "cli/counter_source_flag.h"

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

}  // namespace cuprobe
