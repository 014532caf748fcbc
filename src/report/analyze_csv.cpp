#include "report/analyze_csv.h"

#include <span>

#include "report/analyze_table_columns.h"
#include "report/analyze_tables_csv.h"
#include "report/cross_rank_csv.h"
#include "report/csv_table.h"
#include "report/kernel_display_names.h"

namespace cuprobe {
namespace {

std::string categories_csv(const AnalyzeReport& r) {
  return rank_table_csv(
      r, category_columns(), [](const RankAnalysis& a) -> const auto& { return a.categories; });
}

std::string kernels_csv(const AnalyzeReport& r) {
  return rank_table_csv(r, kernel_columns(), [](const RankAnalysis& a) {
    std::vector<std::string> display = rank_kernel_display_names(a);
    std::vector<KernelTableRow> rows;
    for (std::size_t i = 0; i < a.kernels.size(); ++i) rows.push_back({a.kernels[i], std::move(display[i])});
    return rows;
  });
}

std::string steps_csv(const AnalyzeReport& r) {
  return rank_table_csv(r, step_columns(), [](const RankAnalysis& a) {
    const std::vector<Step>& steps = a.steps.steps;
    TimeNs origin = steps.empty() ? 0 : steps.front().cpu_start;
    std::vector<StepTableRow> rows;
    for (std::size_t s = 0; s < steps.size(); ++s) rows.push_back({steps[s], s, origin});
    return rows;
  });
}

// One row per rank: communication and copies against compute (analysis/category_overlap.h).
std::string overlap_csv(const AnalyzeReport& r) {
  return rank_table_csv(r, overlap_columns(),
                        [](const RankAnalysis& a) { return std::span<const RankAnalysis>(&a, 1); });
}

// The report's findings in their ranking, each with its rank (not one table per rank).
std::string findings_csv(const AnalyzeReport& r) {
  CsvText csv(csv_header(finding_columns(), {}));
  int order = 0;
  for (const auto& f : r.findings) csv.row(csv_row(finding_columns(), FindingTableRow{f, ++order}, {}));
  return csv.text;
}

}  // namespace

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::vector<std::pair<std::string, std::string>> analyze_csv(const AnalyzeReport& report) {
  std::vector<std::pair<std::string, std::string>> tables{{"categories.csv", categories_csv(report)},
                                                          {"kernels.csv", kernels_csv(report)},
                                                          {"steps.csv", steps_csv(report)},
                                                          {"findings.csv", findings_csv(report)},
                                                          {"overlap.csv", overlap_csv(report)}};
  for (auto& table : trace_tables_csv(report)) tables.push_back(std::move(table));
  if (report.cross_rank) {
    for (auto& table : cross_rank_csv(*report.cross_rank)) tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace cuprobe
