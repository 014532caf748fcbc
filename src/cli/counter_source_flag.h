// The --source option of sample, bench and exporter: cupti (PM sampling) or
// dcgm=URL (a dcgm-exporter endpoint, when DCGM profiling holds the counters).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cuprobe {

// Adds --source to `app`, filling `text` ("cupti" by default); `prefix` starts the help text
// (e.g. "with --sample: ").
CLI::Option* add_counter_source_option(CLI::App& app, std::string& text, const std::string& prefix = "");

}  // namespace cuprobe
