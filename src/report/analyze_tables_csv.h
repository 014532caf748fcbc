// The peers' first tables in `cuprobe analyze --csv DIR`: idle.csv, launches.csv,
// annotations.csv, api.csv, copies.csv, queues.csv (one row per rank and item;
// docs/analyze-tables.md).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analysis/analysis_result.h"

namespace cuprobe {

std::vector<std::pair<std::string, std::string>> trace_tables_csv(const AnalyzeReport& report);

}  // namespace cuprobe
