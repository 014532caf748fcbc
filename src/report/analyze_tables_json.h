// The peers' first tables of a rank in `cuprobe analyze --json` (schema
// cuprobe.analyze/1, docs/analyze-json.md): idle_by_stream, launch_stats,
// annotations, api_summary, copies, queue_length.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/analysis_result.h"

namespace cuprobe {

// Adds the tables' keys to a rank's object.
void add_trace_tables_json(nlohmann::ordered_json& rank, const RankAnalysis& a);

}  // namespace cuprobe
