// The per-rank summary file of `analyze --summary FILE` (schema "cuprobe.rank-summary/2", docs/analyze-ranks.md):
// what the cross-rank analysis needs of each rank (analysis/rank_summary.h), small whatever the trace's size, so
// that each node reduces its own ranks where the traces live and `analyze` of the summaries gives the cross-rank
// answer without the traces.
#pragma once

#include <string>
#include <vector>

#include "analysis/rank_summary.h"

namespace cuprobe {

inline constexpr const char* kRankSummarySchema = "cuprobe.rank-summary/2";
// Version 1, still read: its collective keys carry no communicator, so its calls are matched by stream order.
inline constexpr const char* kRankSummarySchemaV1 = "cuprobe.rank-summary/1";

// The summaries of the ranks one run of analyze read, as the file's text.
std::string rank_summary_file(const std::vector<RankSummary>& ranks);

// Whether the file's first bytes say it is a summary file of any version (the schema comes first); false for a pipe.
bool is_rank_summary_file(const std::string& path);

// The summaries in a summary file; an InputError naming the file and what is wrong.
std::vector<RankSummary> read_rank_summary_file(const std::string& path);

}  // namespace cuprobe
