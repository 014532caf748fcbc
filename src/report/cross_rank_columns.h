// The columns of analyze's cross-rank tables (analysis/cross_rank.h), each list
// read by the table's CSV (cross_rank_csv: ranks.csv, collectives.csv), JSON
// (cross_rank_json: ranks, calls) and text (cross_rank_text) writers. The CSV
// keeps its older order (table_columns.h: only()); the text table its own
// (text_at).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "analysis/cross_rank.h"
#include "report/table_columns.h"

namespace cuprobe {

// A rank's row with its position in CrossRank::ranks.
struct CrossRankTableRow {
  const CrossRankRow& rank;
  std::size_t position = 0;
};

// A matched call with its table (the last rank's number, the CSV's matching).
struct CollectiveTableRow {
  const CollectiveRow& call;
  const CrossRank& table;
};

TableColumns<CrossRankTableRow> cross_rank_columns();
TableColumns<CollectiveTableRow> collective_columns();

// A rank as the text shows it: its number, or its position where the trace names none.
std::string rank_cell(const std::optional<int>& rank, std::size_t position);

// "+2.748 ms", "-0.4 us": an offset or a difference, with its sign.
std::string signed_ms(double ms);

}  // namespace cuprobe
