#include "report/cross_rank_csv.h"

#include "report/cross_rank_columns.h"
#include "report/csv_table.h"

namespace cuprobe {

std::vector<std::pair<std::string, std::string>> cross_rank_csv(const CrossRank& t) {
  CsvText ranks(csv_header(cross_rank_columns(), {}));
  for (std::size_t r = 0; r < t.ranks.size(); ++r)
    ranks.row(csv_row(cross_rank_columns(), CrossRankTableRow{t.ranks[r], r}, {}));
  CsvText calls(csv_header(collective_columns(), {}));
  for (const CollectiveRow& c : t.calls) calls.row(csv_row(collective_columns(), CollectiveTableRow{c, t}, {}));
  return {{"ranks.csv", std::move(ranks.text)}, {"collectives.csv", std::move(calls.text)}};
}

}  // namespace cuprobe
