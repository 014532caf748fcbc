// Counter options shared by the verbs that sample: --source (cupti, or dcgm=URL:
// a dcgm-exporter endpoint, when DCGM profiling holds the counters) for sample,
// bench and exporter, and the checked SamplerConfig of sample and exporter.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "collect/counters/device_sampler.h"

namespace cuprobe {

// Adds --source to `app`, filling `text` ("cupti" by default); `prefix` starts the help text
// (e.g. "with --sample: ").
CLI::Option* add_counter_source_option(CLI::App& app, std::string& text, const std::string& prefix = "");

// SamplerConfig from --gpu, --interval (1ms to 10s) and --preset; throws exit 2 on bad values.
SamplerConfig sampler_config_from_flags(const std::string& gpu_text, const std::string& interval_text,
                                        const std::string& preset);

}  // namespace cuprobe
