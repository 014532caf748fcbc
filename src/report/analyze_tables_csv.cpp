#include "report/analyze_tables_csv.h"

#include "report/csv_table.h"
#include "report/trace_table_columns.h"

namespace cuprobe {
namespace {

std::string num(double v) { return csv_number(v); }
std::string count(std::int64_t v) { return std::to_string(v); }

// Calls add(rank label, rank) for each rank.
template <typename Fn>
void for_each_rank(const AnalyzeReport& r, Fn add) {
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const RankAnalysis& a = r.ranks[i];
    add(std::to_string(a.rank ? *a.rank : static_cast<int>(i)), a);
  }
}

// One CSV table: a row per rank and item, the rank first.
template <typename Row, typename Rows>
std::string table_csv(const AnalyzeReport& report, TableColumns<Row> columns, Rows rows_of) {
  CsvText csv(csv_header(columns, {"rank"}));
  for_each_rank(report, [&](const std::string& rank, const RankAnalysis& a) {
    for (const Row& r : rows_of(a)) csv.row(csv_row(columns, r, {rank}));
  });
  return csv.text;
}

// One row per rank (analysis/hta_comm_overlap.h); comp_comm_overlap_pctg empty without communication kernels.
std::string hta_overlap_csv(const AnalyzeReport& report) {
  CsvText csv({"rank", "communication_kernels", "communication_ms", "computation_ms", "overlap_ms",
               "comp_comm_overlap_pctg", "computation_only_ms", "communication_only_ms"});
  for_each_rank(report, [&](const std::string& rank, const RankAnalysis& a) {
    const HtaCommOverlap& o = a.hta_overlap;
    csv.row({rank, count(o.communication_kernels), num(o.communication_ms), num(o.computation_ms), num(o.overlap_ms),
             o.communication_kernels > 0 ? num(o.comp_comm_overlap_pctg) : "", num(o.computation_only_ms()),
             num(o.communication_only_ms())});
  });
  return csv.text;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> trace_tables_csv(const AnalyzeReport& report) {
  return {
      {"idle.csv", table_csv(
                       report, idle_columns(), [](const RankAnalysis& a) -> const auto& { return a.idle.streams; })},
      {"launches.csv",
       table_csv(
           report, launch_columns(), [](const RankAnalysis& a) -> const auto& { return a.launches.kernels; })},
      {"annotations.csv",
       table_csv(
           report, annotation_columns(), [](const RankAnalysis& a) -> const auto& { return a.annotations; })},
      {"api.csv", table_csv(
                      report, api_columns(), [](const RankAnalysis& a) -> const auto& { return a.api; })},
      {"copies.csv", table_csv(
                         report, copy_columns(), [](const RankAnalysis& a) -> const auto& { return a.copies; })},
      {"queues.csv", table_csv(
                         report, queue_columns(), [](const RankAnalysis& a) -> const auto& { return a.queues; })},
      {"hta_overlap.csv", hta_overlap_csv(report)}};
}

}  // namespace cuprobe
