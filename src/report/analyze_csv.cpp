#include "report/analyze_csv.h"

#include "report/analyze_tables_csv.h"
#include "report/cross_rank_csv.h"
#include "report/csv_table.h"
#include "report/kernel_display_names.h"

namespace cuprobe {
namespace {

std::string num(double v) { return csv_number(v); }

std::string rank_cell(const RankAnalysis& a, std::size_t index) {
  return std::to_string(a.rank ? *a.rank : static_cast<int>(index));
}

using Csv = CsvText;

std::string categories_csv(const AnalyzeReport& r) {
  Csv csv({"rank", "category", "time_ms", "share", "calls", "per_step_ms", "per_step_median_ms", "summed_share",
           "busy_ratio"});
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    for (const auto& c : r.ranks[i].categories) {
      csv.row({rank_cell(r.ranks[i], i), std::string(category_name(c.category)), num(c.time_ms), num(c.share),
               std::to_string(c.calls), num(c.per_step_ms), num(c.per_step_median_ms), num(c.summed_share),
               num(c.busy_ratio)});
    }
  }
  return csv.text;
}

std::string kernels_csv(const AnalyzeReport& r) {
  Csv csv({"rank", "kernel", "category", "tensor_core", "precision", "calls", "time_ms", "share", "mean_us",
           "per_step_ms", "decided_by_rule", "summed_share", "display_name", "min_us", "median_us", "p90_us", "max_us",
           "std_us", "busy_ratio"});
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    std::vector<std::string> display = rank_kernel_display_names(r.ranks[i]);
    std::size_t row = 0;
    for (const auto& k : r.ranks[i].kernels) {
      csv.row({rank_cell(r.ranks[i], i), k.name, std::string(category_name(k.category)),
               k.tensor_core ? (*k.tensor_core ? "yes" : "no") : "",
               k.precision ? std::string(precision_name(*k.precision)) : "", std::to_string(k.calls), num(k.time_ms),
               num(k.share), num(k.mean_us), num(k.per_step_ms), k.rule, num(k.summed_share), display[row++],
               num(k.min_us), num(k.median_us), num(k.p90_us), num(k.max_us), num(k.std_us), num(k.busy_ratio)});
    }
  }
  return csv.text;
}

std::string steps_csv(const AnalyzeReport& r) {
  std::vector<std::string> header{"rank",    "step",        "kind",        "start_ms",
                                  "step_ms", "gpu_span_ms", "gpu_busy_ms", "activities"};
  for (int c = 0; c < kCategoryCount; ++c)
    header.push_back(std::string(category_name(static_cast<Category>(c))) + "_ms");
  header.insert(header.end(), {"cpu_ms", "outlier", "comm_ms", "comm_overlapped_ms", "copy_ms", "copy_overlapped_ms"});
  Csv csv(header);
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const auto& steps = r.ranks[i].steps.steps;
    TimeNs origin = steps.empty() ? 0 : steps.front().cpu_start;
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const Step& st = steps[s];
      std::vector<std::string> row{rank_cell(r.ranks[i], i),
                                   std::to_string(s),
                                   st.kind,
                                   num(static_cast<double>(st.cpu_start - origin) / 1e6),
                                   num(static_cast<double>(st.time) / 1e6),
                                   num(static_cast<double>(st.gpu_end - st.gpu_start) / 1e6),
                                   num(static_cast<double>(st.gpu_busy) / 1e6),
                                   std::to_string(st.activities)};
      for (TimeNs t : st.category_ns) row.push_back(num(static_cast<double>(t) / 1e6));
      for (TimeNs t : {st.cpu_end - st.cpu_start}) row.push_back(num(static_cast<double>(t) / 1e6));
      row.push_back(st.outlier ? "1" : "0");
      for (TimeNs t : {st.comm_ns, st.comm_overlapped_ns, st.copy_ns, st.copy_overlapped_ns})
        row.push_back(num(static_cast<double>(t) / 1e6));
      csv.row(row);
    }
  }
  return csv.text;
}

// One row per rank: communication and copies against compute (analysis/category_overlap.h).
std::string overlap_csv(const AnalyzeReport& r) {
  Csv csv({"rank", "comm_ms", "comm_overlapped_ms", "comm_overlapped_share", "comm_overlapped_share_step_median",
           "copy_ms", "copy_overlapped_ms", "copy_overlapped_share", "copy_overlapped_share_step_median", "summed_ms",
           "gpu_busy_ms"});
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const RankAnalysis& a = r.ranks[i];
    const CategoryOverlap& o = a.overlap;
    csv.row({rank_cell(a, i), num(o.comm_ms), num(o.comm_overlapped_ms), num(o.comm_overlapped_share),
             num(o.comm_overlapped_share_step_median), num(o.copy_ms), num(o.copy_overlapped_ms),
             num(o.copy_overlapped_share), num(o.copy_overlapped_share_step_median), num(a.summed_ms),
             num(a.gpu_time_ms())});
  }
  return csv.text;
}

std::string findings_csv(const AnalyzeReport& r) {
  Csv csv({"order", "rank", "id", "severity", "share", "step_share", "title", "kernels", "suggestion"});
  int order = 0;
  for (const auto& f : r.findings) {
    std::string kernels;
    for (const auto& k : f.kernels) kernels += (kernels.empty() ? "" : "\n") + k;
    csv.row({std::to_string(++order), f.rank ? std::to_string(*f.rank) : "", f.id, f.severity, num(f.share),
             num(f.step_share), f.title, kernels, f.suggestion});
  }
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
