#include "report/analyze_json.h"

#include <cmath>

#include "report/analyze_tables_json.h"
#include "report/cross_rank_json.h"
#include "report/kernel_display_names.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

json optional_bool(const std::optional<bool>& b) { return b ? json(*b) : json(nullptr); }

// Work columns of a kernel row (docs/findings.md, "Work per kernel"): null where unknown.
void add_kernel_work(json& row, const KernelRow& k) {
  row["dram_bytes_measured"] = k.dram_bytes_measured ? json(*k.dram_bytes_measured) : json(nullptr);
  const std::optional<KernelWork>& w = k.work;
  if (!w) {
    for (const char* key : {"bytes", "flops", "achieved_tbps", "achieved_tflops", "peak_share", "bound", "beyond_peak"})
      row[key] = nullptr;
    return;
  }
  row["bytes"] = w->bytes;
  row["flops"] = w->flops;
  row["achieved_tbps"] = w->achieved_tbps;
  row["achieved_tflops"] = w->achieved_tflops;
  row["peak_share"] = w->peak_share ? json(*w->peak_share) : json(nullptr);
  row["bound"] = w->bound.empty() ? json(nullptr) : json(w->bound);
  row["work_calls"] = w->calls;
  row["work_dtype"] = w->dtype.empty() ? json(nullptr) : json(w->dtype);
  row["work_source"] = w->source;
  row["beyond_peak"] = w->beyond_peak.empty() ? json(nullptr) : json(w->beyond_peak);  // physics as a check
}

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
  for (const auto& st : s.steps) {
    list.push_back({{"kind", st.kind},
                    {"time_ms", static_cast<double>(st.time) / 1e6},
                    {"gpu_start_ns", st.gpu_start},
                    {"cpu_ms", static_cast<double>(st.cpu_end - st.cpu_start) / 1e6},
                    {"gpu_ms", static_cast<double>(st.gpu_busy) / 1e6},
                    {"gpu_span_ms", static_cast<double>(st.gpu_end - st.gpu_start) / 1e6},
                    {"activities", st.activities},
                    {"start_ns", st.cpu_start},
                    {"outlier", st.outlier},
                    {"comm_ms", static_cast<double>(st.comm_ns) / 1e6},
                    {"comm_overlapped_ms", static_cast<double>(st.comm_overlapped_ns) / 1e6},
                    {"copy_ms", static_cast<double>(st.copy_ns) / 1e6},
                    {"copy_overlapped_ms", static_cast<double>(st.copy_overlapped_ns) / 1e6}});
  }
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

json overlap_json(const CategoryOverlap& o) {
  return {{"comm_ms", o.comm_ms},
          {"comm_overlapped_ms", o.comm_overlapped_ms},
          {"comm_overlapped_share", o.comm_overlapped_share},
          {"comm_overlapped_share_step_median", o.comm_overlapped_share_step_median},
          {"steps_with_comm", o.steps_with_comm},
          {"copy_ms", o.copy_ms},
          {"copy_overlapped_ms", o.copy_overlapped_ms},
          {"copy_overlapped_share", o.copy_overlapped_share},
          {"copy_overlapped_share_step_median", o.copy_overlapped_share_step_median},
          {"steps_with_copy", o.steps_with_copy}};
}

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
  for (const auto& c : a.categories) {
    cats.push_back({{"category", category_name(c.category)},
                    {"time_ms", c.time_ms},
                    {"share", c.share},
                    {"calls", c.calls},
                    {"per_step_ms", c.per_step_ms},
                    {"summed_share", c.summed_share},
                    {"busy_ratio", c.busy_ratio}});
  }
  j["categories"] = std::move(cats);
  j["summed_ms"] = a.summed_ms;  // what share (= summed_share) is of
  j["overlap"] = overlap_json(a.overlap);
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
    const auto& k = a.kernels[i];
    kernels.push_back({{"name", k.name},
                       {"category", category_name(k.category)},
                       {"tensor_core", optional_bool(k.tensor_core)},
                       {"precision", k.precision ? json(precision_name(*k.precision)) : json(nullptr)},
                       {"calls", k.calls},
                       {"time_ms", k.time_ms},
                       {"share", k.share},
                       {"mean_us", k.mean_us},
                       {"per_step_ms", k.per_step_ms},
                       {"decided_by", category_source_name(k.decided_by)},
                       {"rule", k.rule},
                       {"summed_share", k.summed_share},
                       {"busy_ratio", k.busy_ratio},
                       {"display_name", display[i]},  // unique in the rank's table; "name" is the full name
                       {"min_us", k.min_us},
                       {"median_us", k.median_us},
                       {"p90_us", k.p90_us},
                       {"max_us", k.max_us},
                       {"std_us", k.std_us}});
    add_kernel_work(kernels.back(), k);
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

json finding_json(const Finding& f) {
  json j;
  j["id"] = f.id;
  j["severity"] = f.severity;
  j["share"] = f.share;
  j["step_share"] = f.step_share;
  j["rank"] = f.rank ? json(*f.rank) : json(nullptr);
  j["title"] = f.title;
  j["suggestion"] = f.suggestion;
  j["kernels"] = f.kernels;
  json numbers = json::object();
  for (const auto& [k, v] : f.numbers) numbers[k] = v;
  j["numbers"] = std::move(numbers);
  j["what_if"] = {
      {"description", f.what_if.description},
      {"step_ms_now", f.what_if.step_ms_now},
      {"step_ms_after", f.what_if.step_ms_after ? json(*f.what_if.step_ms_after) : json(nullptr)},
      {"gain_ms", f.gain_ms()},
      {"step_ms_after_alone", f.what_if.step_ms_after_alone ? json(*f.what_if.step_ms_after_alone) : json(nullptr)},
      {"gain_ms_alone", f.alone_gain_ms()},
      {"generic", f.claim.generic}};
  if (!f.sources.empty()) {  // with_stack traces only: where in the user's code its kernels were launched
    json sources = json::array();
    for (const SourceLine& s : f.sources)
      sources.push_back(
          {{"file", s.file}, {"line", s.line}, {"function", s.function}, {"share", s.share}, {"time_ms", s.time_ms}});
    j["sources"] = std::move(sources);
  }
  return j;
}

json analyze_json(const AnalyzeReport& report, std::size_t top_kernels) {
  json j;
  j["schema"] = "cuprobe.analyze/1";
  json ranks = json::array();
  for (const auto& a : report.ranks) ranks.push_back(rank_json(a, top_kernels));
  j["ranks"] = std::move(ranks);
  json findings = json::array();
  for (const auto& f : report.findings) findings.push_back(finding_json(f));
  j["findings"] = std::move(findings);
  if (report.cross_rank) j["cross_rank"] = cross_rank_json(*report.cross_rank);
  j["warnings"] = report.warnings;
  return j;
}

}  // namespace cuprobe
