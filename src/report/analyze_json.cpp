#include "report/analyze_json.h"

#include <cmath>
#include <ostream>
#include <string>
#include <string_view>

#include "report/analyze_table_columns.h"
#include "report/analyze_tables_json.h"
#include "report/cross_rank_json.h"
#include "report/kernel_display_names.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kAnalyzeSchema = "cuprobe.analyze/1";

json peaks_json(const std::optional<DevicePeaks>& p) {
  if (!p) return nullptr;
  json tflops = json::object();
  for (int d = 0; d < kPeakDtypeCount; ++d) {
    if (p->tflops[d]) tflops[std::string(peak_dtype_name(static_cast<PeakDtype>(d)))] = *p->tflops[d];
  }
  return {{"name", p->name},
          {"memory_tbps", p->memory_tbps ? json(*p->memory_tbps) : json(nullptr)},
          {"dense_tflops", std::move(tflops)}};
}

// The counted import stats, declared ones only (docs/trace-formats.md, `import_stats`).
json import_stats_json(const ImportStats& stats) {
  json list = json::array();
  for (const auto& line : stats.counted()) {
    list.push_back({{"id", line.info->id},
                    {"severity", severity_name(line.info->severity)},
                    {"description", line.info->description},
                    {"count", line.value->count},
                    {"example", line.value->example},
                    {"byte_offset", line.value->offset ? json(*line.value->offset) : json(nullptr)}});
  }
  return list;
}

json steps_json(const StepSummary& s) {
  json j;
  j["count"] = s.steps.size();
  j["source"] = s.source;
  j["marker"] = s.marker;
  j["median_ms"] = s.median_ms;  // step time, GPU clock (docs/findings.md "Steps")
  j["p90_ms"] = s.p90_ms;
  j["time_clock"] = "gpu";
  j["cpu_from"] = s.cpu_from.empty() ? json(nullptr) : json(s.cpu_from);
  j["cpu_median_ms"] = s.cpu_from.empty() ? json(nullptr) : json(s.cpu_median_ms);
  j["cpu_p90_ms"] = s.cpu_from.empty() ? json(nullptr) : json(s.cpu_p90_ms);
  j["before_first_step"] = s.before_first_step;
  if (s.replays_per_step > 0) j["replays_per_step"] = s.replays_per_step;
  j["gpu_median_ms"] = s.gpu_median_ms;
  j["gpu_p90_ms"] = s.gpu_p90_ms;
  j["gpu_span_median_ms"] = s.gpu_span_median_ms;
  j["gpu_span_p90_ms"] = s.gpu_span_p90_ms;
  if (s.period_kernels > 0) j["period_kernels"] = s.period_kernels;
  j["assigned_activities"] = s.assigned_activities;
  json list = json::array();
  for (std::size_t i = 0; i < s.steps.size(); ++i)
    list.push_back(json_row(step_columns(), StepTableRow{s.steps[i], i}));
  j["list"] = std::move(list);
  j["typical_step"] = s.typical_step ? json(*s.typical_step) : json(nullptr);
  j["slowest_step"] = s.slowest_step ? json(*s.slowest_step) : json(nullptr);
  json kinds = json::array();
  for (const auto& k : s.kinds) {
    kinds.push_back({{"kind", k.kind},
                     {"steps", k.steps},
                     {"median_ms", k.median_ms},
                     {"outlier_limit_ms", k.outlier_limit_ms},
                     {"outliers", k.outliers}});
  }
  j["kinds"] = std::move(kinds);
  return j;
}

json attribution_rows(const std::vector<CounterAttributionRow>& rows, const std::vector<std::string>& metrics) {
  json list = json::array();
  for (const auto& r : rows) {
    json means = json::object();
    for (std::size_t m = 0; m < metrics.size() && m < r.means.size(); ++m) {
      means[metrics[m]] = std::isnan(r.means[m]) ? json(nullptr) : json(r.means[m]);
    }
    list.push_back({{"key", r.key},
                    {"kernels", r.kernels},
                    {"busy_ms", static_cast<double>(r.busy_ns) / 1e6},
                    {"covered_ms", static_cast<double>(r.covered_ns) / 1e6},
                    {"sampled_ms", static_cast<double>(r.sampled_ns) / 1e6},
                    {"ran_share", r.ran_share()},
                    {"means", std::move(means)}});
  }
  return list;
}

json counters_json(const CounterAttribution& c) {
  json overall = json::object();
  for (std::size_t m = 0; m < c.metrics.size() && m < c.overall.size(); ++m) {
    overall[c.metrics[m]] = std::isnan(c.overall[m]) ? json(nullptr) : json(c.overall[m]);
  }
  return {{"metrics", c.metrics},
          {"median_sample_ms", static_cast<double>(c.median_sample_ns) / 1e6},
          {"overall", std::move(overall)},
          {"overall_span", c.overall_over_kernels ? "first to last kernel" : "whole recording"},
          {"by_category", attribution_rows(c.by_category, c.metrics)},
          {"by_kernel", attribution_rows(c.by_kernel, c.metrics)}};
}

}  // namespace

json overlap_json(const RankAnalysis& a) { return json_row(overlap_columns(), a); }

namespace {

json rank_json(const RankAnalysis& a, std::size_t top_kernels) {
  json j;
  j["rank"] = a.rank ? json(*a.rank) : json(nullptr);
  j["file"] = a.file;
  j["device"] = a.device;
  j["window_ms"] = a.window_ms;
  j["gpu_busy_ms"] = a.gpu_busy_ms;
  j["gpu_busy_share"] = a.gpu_busy_share;
  j["gpu_activities"] = a.gpu_activities;
  j["steps"] = steps_json(a.steps);
  json devices = json::array();
  for (const auto& d : a.devices) {
    devices.push_back({{"device", d.device},
                       {"name", d.name},
                       {"activities", d.activities},
                       {"busy_ms", d.busy_ms},
                       {"busy_share", d.busy_share},
                       {"step_busy_median_ms", d.step_busy_median_ms},
                       {"idle_share", d.idle_share},
                       {"waiting_share", d.waiting_share}});
  }
  j["devices"] = std::move(devices);  // gpu_busy_ms is the time any of them works
  j["overlapped_step_ms"] = a.devices.size() > 1 ? json(a.overlapped_step_ms) : json(nullptr);
  json cats = json::array();
  for (const auto& c : a.categories) cats.push_back(json_row(category_columns(), c));
  j["categories"] = std::move(cats);
  j["summed_ms"] = a.summed_ms;  // what share (= summed_share) is of
  j["overlap"] = overlap_json(a);
  json decisions = json::array();
  for (const auto& d : a.category_decisions) {
    decisions.push_back({{"decided_by", category_source_name(d.source)},
                         {"time_ms", d.time_ms},
                         {"share", d.share},
                         {"calls", d.calls},
                         {"kernels", d.kernels}});
  }
  j["category_decisions"] = std::move(decisions);
  j["tensor_core_share"] = a.tensor_core_share;  // the header's and low_tensor_core_share's figure
  j["tensor_core_share_basis"] = a.tensor_core_per_step ? "median step" : "window";
  j["tensor_core_share_window"] = a.tensor_core_share_window;
  j["peaks"] = peaks_json(a.peaks);
  j["op_shapes"] = a.op_shapes;
  j["tensor_core_basis_ms"] = a.tensor_core_basis_ms;  // summed time outside whole graph launches
  json kernels = json::array();
  std::vector<std::string> display = rank_kernel_display_names(a);
  for (std::size_t i = 0; i < a.kernels.size() && i < top_kernels; ++i) {
    kernels.push_back(json_row(kernel_columns(), KernelTableRow{a.kernels[i], display[i]}));
  }
  j["kernels"] = std::move(kernels);
  j["kernels_total"] = a.kernels.size();
  j["unknown_kernels"] = a.unknown_kernels;
  json findings = json::array();
  for (const auto& f : a.findings) findings.push_back(finding_json(f));
  j["findings"] = std::move(findings);
  j["warnings"] = a.warnings;
  j["import_stats"] = import_stats_json(a.import_stats);
  j["complete"] = a.complete;
  if (!a.counters.metrics.empty()) j["counters"] = counters_json(a.counters);
  add_trace_tables_json(j, a);
  return j;
}

}  // namespace

json finding_json(const Finding& f) { return json_row(finding_columns(), FindingTableRow{f}); }

namespace {

// The top-level keys after "ranks", in their order.
json report_tail_json(const AnalyzeReport& report) {
  json j;
  json findings = json::array();
  for (const auto& f : report.findings) findings.push_back(finding_json(f));
  j["findings"] = std::move(findings);
  if (report.cross_rank) j["cross_rank"] = cross_rank_json(*report.cross_rank);
  j["warnings"] = report.warnings;
  return j;
}

// Writes `v` as dump(1) would at `prefix`'s depth: each line after the first
// indented by `prefix` (a dumped string holds no raw newline, so each '\n' is
// a line break of the layout).
void write_at_depth(std::ostream& os, const json& v, std::string_view prefix) {
  std::string text = v.dump(1, ' ', false, kReplaceInvalidUtf8);
  std::string_view rest = text;
  for (std::size_t nl = rest.find('\n'); nl != std::string_view::npos; nl = rest.find('\n')) {
    os << rest.substr(0, nl + 1) << prefix;
    rest.remove_prefix(nl + 1);
  }
  os << rest;
}

}  // namespace

json analyze_json(const AnalyzeReport& report, std::size_t top_kernels) {
  json j;
  j["schema"] = kAnalyzeSchema;
  json ranks = json::array();
  for (const auto& a : report.ranks) ranks.push_back(rank_json(a, top_kernels));
  j["ranks"] = std::move(ranks);
  json tail = report_tail_json(report);
  for (auto& item : tail.items()) j[item.key()] = std::move(item.value());
  return j;
}

void write_analyze_json(std::ostream& os, const AnalyzeReport& report, std::size_t top_kernels) {
  os << "{\n \"schema\": " << json(kAnalyzeSchema).dump() << ",\n \"ranks\": [";
  for (std::size_t i = 0; i < report.ranks.size(); ++i) {
    os << (i == 0 ? "\n  " : ",\n  ");
    write_at_depth(os, rank_json(report.ranks[i], top_kernels), "  ");  // built, written and freed
  }
  os << (report.ranks.empty() ? "]" : "\n ]");
  const json tail = report_tail_json(report);
  for (const auto& item : tail.items()) {
    os << ",\n " << json(item.key()).dump(-1, ' ', false, kReplaceInvalidUtf8) << ": ";
    write_at_depth(os, item.value(), " ");
  }
  os << "\n}";
}

}  // namespace cuprobe
