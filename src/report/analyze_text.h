// `cuprobe analyze` for people: per rank the window, steps, categories, top
// kernels; then the findings, ranked, and the warnings.
#pragma once

#include <string>

#include "analysis/analysis_result.h"

namespace cuprobe {

std::string analyze_text(const AnalyzeReport& report, std::size_t top_kernels);
// The ranked findings; their kernels under the names of their rows in the kernel table.
std::string findings_text(const AnalyzeReport& report);

}  // namespace cuprobe
