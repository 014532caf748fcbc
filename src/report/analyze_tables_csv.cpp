#include "report/analyze_tables_csv.h"

#include <span>

<<<<<<< HEAD
#include "report/analyze_table_columns.h"
#include "report/trace_table_columns.h"

namespace cuprobe {
=======
#include "report/csv_table.h"
#include "report/trace_table_columns.h"

namespace cuprobe {
namespace {

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

}  // namespace
>>>>>>> peers4

std::vector<std::pair<std::string, std::string>> trace_tables_csv(const AnalyzeReport& report) {
  return {
      {"idle.csv", rank_table_csv(
                       report, idle_columns(), [](const RankAnalysis& a) -> const auto& { return a.idle.streams; })},
      {"launches.csv",
       rank_table_csv(
           report, launch_columns(), [](const RankAnalysis& a) -> const auto& { return a.launches.kernels; })},
      {"annotations.csv",
       rank_table_csv(
           report, annotation_columns(), [](const RankAnalysis& a) -> const auto& { return a.annotations; })},
      {"api.csv", rank_table_csv(
                      report, api_columns(), [](const RankAnalysis& a) -> const auto& { return a.api; })},
      {"copies.csv", rank_table_csv(
                         report, copy_columns(), [](const RankAnalysis& a) -> const auto& { return a.copies; })},
      {"queues.csv", rank_table_csv(
                         report, queue_columns(), [](const RankAnalysis& a) -> const auto& { return a.queues; })},
<<<<<<< HEAD
      {"hta_overlap.csv", rank_table_csv(report, hta_overlap_columns(), [](const RankAnalysis& a) {
         return std::span<const HtaCommOverlap>(&a.hta_overlap, 1);  // one row per rank
=======
      {"hta_overlap.csv", table_csv(report, hta_overlap_columns(), [](const RankAnalysis& a) {
         return std::span<const HtaCommOverlap>(&a.hta_overlap, 1);
>>>>>>> peers4
       })}};
}

}  // namespace cuprobe
