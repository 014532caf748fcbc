#include "report/analyze_tables_csv.h"

#include <span>

#include "report/analyze_table_columns.h"
#include "report/trace_table_columns.h"

namespace cuprobe {

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
      {"hta_overlap.csv", rank_table_csv(report, hta_overlap_columns(), [](const RankAnalysis& a) {
         return std::span<const HtaCommOverlap>(&a.hta_overlap, 1);  // one row per rank
       })}};
}

}  // namespace cuprobe
