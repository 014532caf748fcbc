// `cuprobe analyze --json`: schema "cuprobe.analyze/1" (names are a contract;
// fields are only added).
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/analysis_result.h"

namespace cuprobe {

// For dump(): bytes that are not UTF-8 (a file name, say) become U+FFFD, so
// the output is valid JSON whatever the input held.
inline constexpr auto kReplaceInvalidUtf8 = nlohmann::ordered_json::error_handler_t::replace;

nlohmann::ordered_json finding_json(const Finding& f);
// {"comm_ms", "comm_overlapped_ms", "comm_overlapped_share", ...}: the rank's "overlap" (also the page's).
nlohmann::ordered_json overlap_json(const RankAnalysis& a);
nlohmann::ordered_json analyze_json(const AnalyzeReport& report, std::size_t top_kernels);

}  // namespace cuprobe
