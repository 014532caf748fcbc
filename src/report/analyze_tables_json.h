// The peers' first tables of a rank in `cuprobe analyze --json` (schema
// cuprobe.analyze/1, docs/analyze-json.md): idle_by_stream, launch_stats,
// annotations, api_summary, copies, queue_length.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/analysis_result.h"

namespace cuprobe {

// A rank's `hta_window` object: the window of the tables named after HTA (also in diff's JSON).
nlohmann::ordered_json hta_window_json(const HtaWindowInfo& w);

// Adds the tables' keys to a rank's object.
void add_trace_tables_json(nlohmann::ordered_json& rank, const RankAnalysis& a);

}  // namespace cuprobe
