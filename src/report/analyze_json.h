// `cuprobe analyze --json`: schema "cuprobe.analyze/1" (names are a contract;
// fields are only added).
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/analysis_result.h"

namespace cuprobe {

nlohmann::ordered_json finding_json(const Finding& f);
nlohmann::ordered_json analyze_json(const AnalyzeReport& report, std::size_t top_kernels);

}  // namespace cuprobe
