// --peak for the verbs that analyse traces (analyze, diff): the device's
// memory bandwidth and dense FLOP/s per dtype, overriding or completing the
// table's entry (analysis/device_peaks.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "analysis/analysis_result.h"

namespace cuprobe {

void add_peak_flag(CLI::App& app, std::string& text);

// Parses the flag's text into options.peak_overrides (nothing when empty);
// throws cuprobe::Error (exit code 2) on a malformed value.
void apply_peak_flag(const std::string& text, AnalyzeOptions& options);

}  // namespace cuprobe
