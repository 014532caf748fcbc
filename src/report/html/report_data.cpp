#include "report/html/report_data.h"

#include <algorithm>
#include <map>

#include "common/units.h"
#include "report/analyze_json.h"
#include "report/analyze_tables_json.h"
#include "report/cross_rank_json.h"
#include "report/diff_report.h"
#include "report/html/report_findings.h"
#include "report/html/report_headline.h"
#include "report/html/step_timeline.h"
#include "report/kernel_display_names.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

TimeNs profile_origin(const Profile& p) {
  TimeNs lo = INT64_MAX;
  if (!p.gpu.empty()) lo = std::min(lo, p.gpu.front().start);
  if (!p.cpu.empty()) lo = std::min(lo, p.cpu.front().start);
  return lo == INT64_MAX ? 0 : lo;
}

json steps_json(const RankAnalysis& a) {
  const auto& steps = a.steps.steps;
  json j;
  j["count"] = steps.size();
  j["source"] = a.steps.source;
  std::vector<std::string> kind_names;
  json kind = json::array(), step_ms = json::array(), busy = json::array(), outlier = json::array();
  std::vector<json> cat(kCategoryCount, json::array());
  std::vector<bool> cat_used(kCategoryCount, false);
  for (const auto& s : steps) {
    auto k = std::find(kind_names.begin(), kind_names.end(), s.kind);
    if (k == kind_names.end()) k = kind_names.insert(kind_names.end(), s.kind);
    kind.push_back(k - kind_names.begin());
    step_ms.push_back(round4(static_cast<double>(s.time) / 1e6));  // Step::time: analyze's step, GPU clock
    busy.push_back(round4(static_cast<double>(s.gpu_busy) / 1e6));
    outlier.push_back(s.outlier ? 1 : 0);
    for (int c = 0; c < kCategoryCount; ++c) {
      TimeNs t = s.category_ns[static_cast<std::size_t>(c)];
      cat_used[static_cast<std::size_t>(c)] = cat_used[static_cast<std::size_t>(c)] || t > 0;
      cat[static_cast<std::size_t>(c)].push_back(round4(static_cast<double>(t) / 1e6));
    }
  }
  j["kind_names"] = kind_names;
  j["kind"] = std::move(kind);
  j["step_ms"] = std::move(step_ms);
  j["busy_ms"] = std::move(busy);
  j["outlier"] = std::move(outlier);
  j["median_ms"] = round4(a.steps.median_ms);
  j["p90_ms"] = round4(a.steps.p90_ms);
  j["gpu_median_ms"] = round4(a.steps.gpu_median_ms);
  j["typical_step"] = a.steps.typical_step ? json(*a.steps.typical_step) : json();
  j["slowest_step"] = a.steps.slowest_step ? json(*a.steps.slowest_step) : json();
  json kinds = json::object();  // by kind name: the median and outlier limit the bars are drawn against
  for (const auto& k : a.steps.kinds) {
    kinds[k.kind] = {{"steps", k.steps},
                     {"median_ms", round4(k.median_ms)},
                     {"outlier_limit_ms", round4(k.outlier_limit_ms)},
                     {"outliers", k.outliers}};
  }
  j["kinds"] = std::move(kinds);
  json cats = json::array();
  for (int c = 0; c < kCategoryCount; ++c) {
    cats.push_back(cat_used[static_cast<std::size_t>(c)] ? std::move(cat[static_cast<std::size_t>(c)]) : json());
  }
  j["cat"] = std::move(cats);
  return j;
}

// Counter samples per metric, as means over at most kReportMaxCounterPoints equal time bins.
json counters_json(const Profile& p, TimeNs origin, double window_ms, std::string& note) {
  std::map<std::string, std::vector<const CounterSample*>> by_metric;
  for (const auto& c : p.counters) {
    if (std::isfinite(c.value)) by_metric[std::string(p.name_of(c.metric))].push_back(&c);
  }
  json j;
  j["metrics"] = json::array();
  j["values"] = json::array();
  std::size_t bins = kReportMaxCounterPoints;
  bool binned = false;
  for (const auto& [name, list] : by_metric) binned = binned || list.size() > bins;
  std::vector<double> t;
  if (!binned) {
    // Each metric keeps its samples; a shared time axis needs the same sample times.
    bool same_times = true;
    const auto& first = by_metric.empty() ? std::vector<const CounterSample*>{} : by_metric.begin()->second;
    for (const auto& [name, list] : by_metric) same_times = same_times && list.size() == first.size();
    if (!same_times) binned = true;
    for (std::size_t i = 0; !binned && i < first.size(); ++i) {
      t.push_back(round4(static_cast<double>((first[i]->start + first[i]->end) / 2 - origin) / 1e6));
    }
  }
  if (binned) {
    bins = std::min<std::size_t>(bins, 1500);
    for (std::size_t b = 0; b < bins; ++b) t.push_back(round4(window_ms * (static_cast<double>(b) + 0.5) / bins));
    note = "counter samples averaged into " + std::to_string(bins) + " time bins per metric";
  }
  for (const auto& [name, list] : by_metric) {
    json values = json::array();
    if (!binned) {
      for (const auto* c : list) values.push_back(round4(c->value));
    } else {
      std::vector<double> sum(bins, 0);
      std::vector<int> n(bins, 0);
      for (const auto* c : list) {
        double at = static_cast<double>((c->start + c->end) / 2 - origin) / 1e6;
        auto b = static_cast<std::size_t>(
            std::clamp(at / std::max(window_ms, 1e-9) * static_cast<double>(bins), 0.0, static_cast<double>(bins - 1)));
        sum[b] += c->value;
        ++n[b];
      }
      for (std::size_t b = 0; b < bins; ++b) values.push_back(n[b] ? json(round4(sum[b] / n[b])) : json());
    }
    j["metrics"].push_back(name);
    j["values"].push_back(std::move(values));
  }
  j["t_ms"] = t;
  if (!note.empty()) j["downsampled"] = note;
  return j;
}

double comm_ms(const RankAnalysis& a, bool per_step) {
  for (const auto& c : a.categories) {
    if (c.category == Category::kCommunication) return per_step ? c.per_step_median_ms : c.time_ms;
  }
  return 0;
}

double wait_ms(const RankAnalysis& a) {
  for (const auto& f : a.findings) {
    if (f.id != "collective_wait") continue;
    for (const auto& [k, v] : f.numbers) {
      if (k == "excess_ms") return v;
    }
  }
  return 0;
}

json rank_json(const Profile& p, const RankAnalysis& a) {
  json j;
  j["rank"] = a.rank ? json(*a.rank) : json();
  j["file"] = a.file;
  j["device"] = a.device;
  j["window_ms"] = round4(a.window_ms);
  j["gpu_busy_ms"] = round4(a.gpu_busy_ms);
  j["busy_per_step_ms"] = round4(a.steps.gpu_median_ms);
  j["comm_ms"] = round4(comm_ms(a, false));
  j["comm_per_step_ms"] = round4(comm_ms(a, true));
  j["wait_ms"] = round4(wait_ms(a));
  j["steps"] = steps_json(a);
  json cats = json::array();
  for (const auto& c : a.categories) {
    cats.push_back({{"category", category_name(c.category)},
                    {"time_ms", round4(c.time_ms)},
                    {"share", round4(c.share)},
                    {"calls", c.calls},
                    {"per_step_ms", round4(c.per_step_ms)},
                    {"summed_share", round4(c.summed_share)}});
  }
  j["categories"] = std::move(cats);
  j["summed_ms"] = round4(a.summed_ms);
  j["overlap"] = overlap_json(a);
  json kernels = json::array();
  std::vector<std::string> display = rank_kernel_display_names(a);
  for (std::size_t i = 0; i < a.kernels.size() && i < kReportMaxKernels; ++i) {
    const auto& k = a.kernels[i];
    kernels.push_back({{"name", k.name},
                       {"display_name", display[i]},
                       {"category", category_name(k.category)},
                       {"calls", k.calls},
                       {"time_ms", round4(k.time_ms)},
                       {"mean_us", round4(k.mean_us)},
                       {"median_us", round4(k.median_us)},
                       {"max_us", round4(k.max_us)},
                       {"share", round4(k.share)},
                       {"summed_share", round4(k.summed_share)},
                       {"tensor_core", k.tensor_core ? json(*k.tensor_core) : json()},
                       {"precision", k.precision ? json(precision_name(*k.precision)) : json()}});
  }
  j["kernels"] = std::move(kernels);
  j["kernels_left_out"] = a.kernels.size() > kReportMaxKernels ? a.kernels.size() - kReportMaxKernels : 0;
  // analyze's peers' tables, as its JSON has them (the longest lists cut as the kernel table is).
  add_trace_tables_json(j, a);
  for (const char* list : {"annotations", "api_summary"}) {
    if (j[list].size() > kReportMaxKernels) j[list].erase(j[list].begin() + kReportMaxKernels, j[list].end());
  }
  json& launched = j["launch_stats"]["kernels"];
  if (launched.size() > kReportMaxKernels) launched.erase(launched.begin() + kReportMaxKernels, launched.end());
  j["timelines"] = typical_and_slowest(p, a);
  TimeNs origin = profile_origin(p);
  if (!p.counters.empty()) {
    std::string note;
    j["counters"] = counters_json(p, origin, a.window_ms, note);
    json bands = json::array();
    for (std::size_t i = 0; i < a.steps.steps.size() && i < kReportMaxStepBands; ++i) {
      const Step& s = a.steps.steps[i];
      auto [from, to] = step_span(s);
      bands.push_back(
          {round4(static_cast<double>(from - origin) / 1e6), round4(static_cast<double>(to - origin) / 1e6)});
    }
    j["step_bands"] = std::move(bands);
  }
  return j;
}

json baseline_json(const ReportBaseline& b) {
  const DiffReport& d = b.diff;
  json j;
  j["a_files"] = b.a_files;
  j["b_files"] = b.b_files;
  j["basis"] = d.basis;
  j["a_ms"] = d.a_ms;
  j["b_ms"] = d.b_ms;
  if (!b.rank_note.empty()) j["rank_note"] = b.rank_note;
  json changes = json::array();
  std::size_t kernels = 0;
  for (const auto& c : d.changes) {
    if (c.kind == "kernel" && ++kernels > 200) continue;  // largest moves first: the rest is noise
    changes.push_back({{"kind", c.kind}, {"name", c.name}, {"a_ms", c.a_ms}, {"b_ms", c.b_ms}});
  }
  j["changes"] = std::move(changes);
  auto list = [](const std::vector<Finding>& fs) {
    json arr = json::array();
    for (const auto& f : fs) arr.push_back(finding_json(f));
    return arr;
  };
  j["findings"] = {{"appeared", list(d.appeared)}, {"disappeared", list(d.disappeared)}, {"kept", list(d.kept)}};
  j["hta_overlap"] = diff_hta_json(d);
  return j;
}

// The cross-rank table as `analyze --json` has it (docs/analyze-ranks.md), its collective calls cut to the
// kReportMaxCollectiveCalls that made the others wait longest, as analyze's text orders them (calls_total says
// how many there were); null with one rank.
json cross_rank_view(const AnalyzeReport& r) {
  if (!r.cross_rank) return nullptr;
  json c = cross_rank_json(*r.cross_rank);
  json& calls = c["calls"];
  c["calls_total"] = calls.size();
  std::vector<json> kept(calls.begin(), calls.end());
  std::stable_sort(kept.begin(), kept.end(), [](const json& a, const json& b) {
    return a["others_wait_ms"].get<double>() > b["others_wait_ms"].get<double>();
  });
  if (kept.size() > kReportMaxCollectiveCalls) kept.resize(kReportMaxCollectiveCalls);
  calls = json(kept);
  return c;
}

}  // namespace

nlohmann::ordered_json report_data(const ReportInputs& in) {
  const AnalyzeReport empty;
  const AnalyzeReport& r = in.report ? *in.report : empty;  // a bench-only page has no traces
  json j;
  j["schema"] = "cuprobe.report/1";
  std::vector<std::string> gpus, notes;
  for (const auto& a : r.ranks) {
    if (!a.device.empty() && std::find(gpus.begin(), gpus.end(), a.device) == gpus.end()) gpus.push_back(a.device);
  }
  for (const auto& a : r.ranks) {
    if (a.kernels.size() > kReportMaxKernels) {
      notes.push_back("Summarised: the kernel tables keep the " + std::to_string(kReportMaxKernels) +
                      " largest kernels of each rank; timelines keep at most " + std::to_string(kTimelineMaxGpuEvents) +
                      " GPU events per step.");
      break;
    }
  }
  j["header"] = {{"inputs", in.inputs},
                 {"gpus", gpus},
                 {"version", in.version},
                 {"generated_utc", in.generated_utc},
                 {"notes", notes}};
  std::vector<std::string> categories;
  for (int c = 0; c < kCategoryCount; ++c) categories.emplace_back(category_name(static_cast<Category>(c)));
  j["categories"] = categories;
  j["headline"] = report_headline(in.report, in.bench);
  json ranks = json::array();
  for (std::size_t i = 0; i < r.ranks.size(); ++i) ranks.push_back(rank_json((*in.profiles)[i], r.ranks[i]));
  j["ranks"] = std::move(ranks);
  j["cross_rank"] = cross_rank_view(r);
  j["findings"] = report_findings(r);
  j["warnings"] = r.warnings;
  j["baseline"] = in.baseline ? baseline_json(*in.baseline) : json();
  j["bench"] = in.bench;
  j["samples"] = in.samples;
  return j;
}

}  // namespace cuprobe
