#include "report/cross_rank_csv.h"

#include "report/csv_table.h"

namespace cuprobe {
namespace {

std::string rank_field(const std::optional<int>& rank) { return rank ? std::to_string(*rank) : std::string(); }

}  // namespace

std::vector<std::pair<std::string, std::string>> cross_rank_csv(const CrossRank& t) {
  // Columns added since the first version go last.
  CsvText ranks({"rank", "file", "step_ms", "steps", "busy_share", "communication_share", "wait_ms", "wait_share",
                 "clock_offset_ms", "clock_residual_us", "last_arrivals", "late_ms", "clock_aligned"});
  for (const CrossRankRow& r : t.ranks) {
    ranks.row({rank_field(r.rank), r.file, csv_number(r.step_ms), std::to_string(r.steps), csv_number(r.busy_share),
               csv_number(r.communication_share), csv_number(r.wait_ms), csv_number(r.wait_share),
               csv_number(r.clock_offset_ms), csv_number(r.clock_residual_us), std::to_string(r.last_arrivals),
               csv_number(r.late_ms), r.clock_aligned ? "true" : "false"});
  }
  CsvText calls({"name", "stream_order", "call", "last_rank", "late_ms", "saving_ms", "others_wait_ms", "max_wait_ms",
                 "communicator", "ranks", "matching"});
  for (const CollectiveRow& c : t.calls) {
    calls.row({c.name, std::to_string(c.stream_order), std::to_string(c.call), rank_field(t.ranks[c.last].rank),
               csv_number(c.late_ms), csv_number(c.saving_ms), csv_number(c.others_wait_ms), csv_number(c.max_wait_ms),
               c.communicator, std::to_string(c.ranks), t.matching});
  }
  return {{"ranks.csv", std::move(ranks.text)}, {"collectives.csv", std::move(calls.text)}};
}

}  // namespace cuprobe
