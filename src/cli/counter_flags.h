// The counter options of the verbs that sample (sample, record, bench --sample,
// exporter): --gpu, --interval, --preset and --source (cupti, or dcgm=URL: a
// dcgm-exporter endpoint, when DCGM profiling holds the counters). Declared
// once here and checked by one rule (plan_counters); each verb places them in
// its help with its own words and defaults.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "collect/counters/device_sampler.h"
#include "collect/counters/sampler_source.h"

namespace cuprobe {

struct CounterFlags {
  std::string gpu = "all";
  std::string interval = "100ms";
  std::string preset = "triage";
  std::string source = "cupti";
};

CLI::Option* add_gpu_flag(CLI::App& app, CounterFlags& flags, const std::string& help);
CLI::Option* add_interval_flag(CLI::App& app, CounterFlags& flags, const std::string& help);
// Checked against the presets at parse time.
CLI::Option* add_preset_flag(CLI::App& app, CounterFlags& flags, const std::string& help);
// `prefix` starts the help text (e.g. "with --sample: ").
CLI::Option* add_source_flag(CLI::App& app, CounterFlags& flags, const std::string& prefix = "");

struct CounterPlan {
  SamplerConfig config;  // gpus, interval, preset
  CounterSource source;
};

// The one rule: --gpu all or CUDA ordinals (0,1); --interval from 1ms to 10s;
// --source cupti or dcgm=URL. Throws cuprobe::Error (exit 2) otherwise.
CounterPlan plan_counters(const CounterFlags& flags);

}  // namespace cuprobe
