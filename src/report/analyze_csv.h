// `cuprobe analyze --csv DIR`: the report as four tables for spreadsheets and
// CI (categories.csv, kernels.csv, steps.csv, findings.csv), one row per rank
// and item, times in milliseconds at full precision. Per rank, the time_ms of
// categories.csv and of kernels.csv each add up to the GPU time the text
// report's category table shows.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analysis/analysis_result.h"
#include "report/csv_table.h"

namespace cuprobe {

// (file name, contents) for each table, in a fixed order.
std::vector<std::pair<std::string, std::string>> analyze_csv(const AnalyzeReport& report);

}  // namespace cuprobe
