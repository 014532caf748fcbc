// `cuprobe analyze --json`: schema "cuprobe.analyze/1" (names are a contract;
// fields are only added).
#pragma once

#include <iosfwd>
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
// analyze_json(report, top_kernels).dump(1, ' ', false, kReplaceInvalidUtf8), byte for byte, written
// to `os` one rank at a time: each rank's JSON is built, written and freed before the next, so the
// memory it takes is one rank's, not the whole document's (issue 37). No newline after it.
void write_analyze_json(std::ostream& os, const AnalyzeReport& report, std::size_t top_kernels);

}  // namespace cuprobe
