// --hta-window for the verbs that analyse traces (analyze, diff): which part of
// a trace the tables named after Holistic Trace Analysis cover
// (analysis/hta_window.h, docs/analyze-tables.md "Window").
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "analysis/analysis_result.h"

namespace cuprobe {

// Declares --hta-window default|all into `text` (which holds the default, "default").
void add_hta_window_flag(CLI::App& app, std::string& text);

// Sets options.hta_window from the flag's checked text.
void apply_hta_window_flag(const std::string& text, AnalyzeOptions& options);

}  // namespace cuprobe
