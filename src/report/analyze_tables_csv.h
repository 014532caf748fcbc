// The peers' first tables in `cuprobe analyze --csv DIR`: idle.csv, launches.csv,
// annotations.csv, api.csv, copies.csv, queues.csv (one row per rank and item;
// docs/analyze-tables.md).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analysis/analysis_result.h"
#include "report/table_columns.h"

namespace cuprobe {

std::vector<std::pair<std::string, std::string>> trace_tables_csv(const AnalyzeReport& report);

// One CSV table of a column list: a row per rank and item, the rank first (its index where the trace names
// none). rows_of(rank) gives the rank's rows.
template <typename Row, typename Rows>
std::string rank_table_csv(const AnalyzeReport& report, TableColumns<Row> columns, Rows rows_of) {
  CsvText csv(csv_header(columns, {"rank"}));
  for (std::size_t i = 0; i < report.ranks.size(); ++i) {
    const RankAnalysis& a = report.ranks[i];
    const std::string rank = std::to_string(a.rank ? *a.rank : static_cast<int>(i));
    for (const Row& r : rows_of(a)) csv.row(csv_row(columns, r, {rank}));
  }
  return csv.text;
}

}  // namespace cuprobe
