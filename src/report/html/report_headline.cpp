#include "report/html/report_headline.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "common/units.h"
#include "report/finding_what_if_text.h"
#include "report/json_field.h"
#include "report/kernel_display_names.h"

namespace cuprobe {
namespace {

// A saving under 0.05% of the step prints as "-0.0%": not a top finding.
constexpr double kTopFindingMinSaving = 0.0005;

using json = nlohmann::ordered_json;

json figure(const char* key, const char* label, const std::string& value, const std::string& note) {
  return {{"key", key}, {"label", label}, {"value", value}, {"note", note}};
}

std::string step_note(const StepSummary& s) {
  std::string note =
      "median of " + std::to_string(s.steps.size()) + " steps (GPU clock), p90 " + format_duration_ms(s.p90_ms);
  if (s.kinds.size() > 1) {
    for (const auto& k : s.kinds) note += "; " + k.kind + " " + format_duration_ms(k.median_ms);
  }
  return note;
}

json rank_figures(const RankAnalysis& a) {
  json figures = json::array();
  const StepSummary& s = a.steps;
  bool per_step = !s.steps.empty();
  if (per_step) {
    figures.push_back(figure("step", "step time", format_duration_ms(s.median_ms), step_note(s)));
    if (s.slowest_step) {
      std::int64_t outliers = 0;
      for (const auto& k : s.kinds) outliers += k.outliers;
      figures.push_back(figure("slowest", "slowest step",
                               format_duration_ms(static_cast<double>(s.steps[*s.slowest_step].time) / 1e6),
                               "step " + std::to_string(*s.slowest_step) + "; " + std::to_string(outliers) +
                                   " outlier step(s) marked in the bars below"));
    }
    figures.push_back(figure("busy", "GPU busy", format_duration_ms(s.gpu_median_ms) + " per step",
                             "of a " + format_duration_ms(s.median_ms) + " step (medians); " +
                                 format_percent(a.gpu_busy_share) + " of the window"));
  } else {
    figures.push_back(figure("step", "step time", "no steps",
                             "none found (no step annotations, graph replays or repeating kernels); window " +
                                 format_duration_ms(a.window_ms)));
    figures.push_back(
        figure("busy", "GPU busy", format_percent(a.gpu_busy_share),
               format_duration_ms(a.gpu_busy_ms) + " of the " + format_duration_ms(a.window_ms) + " window"));
  }
  // In the words of analyze's text: RankAnalysis::tensor_core_share, of the time outside whole CUDA graph launches,
  // whose kernels are unseen; unknown when there is nothing else.
  bool graphs = a.tensor_core_hidden_ms > 0;
  bool known = !graphs || a.tensor_core_basis_ms > 0;
  std::string of = std::string("of GPU time") + (graphs ? " outside whole CUDA graph launches" : "") +
                   (a.tensor_core_per_step ? ", median step" : "");
  figures.push_back(figure("tensor", "tensor cores", known ? format_percent(a.tensor_core_share) : "unknown",
                           known ? of : "whole CUDA graph launches hide their kernels"));
  return figures;
}

// The share of the step a finding's fix saves (beyond the findings above it), as its what-if prints it.
double saving_share(const Finding& f) {
  return f.what_if.step_ms_now > 0 ? f.gain_ms() / f.what_if.step_ms_now : f.step_share;
}

// The first finding (they are ranked by what they save) whose what-if saves something that prints as more than
// 0%: a finding that saves nothing (a property of the recording, or time claimed by the findings above) is never
// the "top finding"; null when no finding saves anything.
json top_finding(const AnalyzeReport& r) {
  auto it = std::find_if(r.findings.begin(), r.findings.end(),
                         [](const Finding& f) { return saving_share(f) >= kTopFindingMinSaving; });
  if (it == r.findings.end()) return json();
  const Finding& f = *it;
  const RankAnalysis* a = finding_rank(r, f);
  std::string projection = what_if_projection(f, "\u2192");
  bool per_step = a && !a->steps.steps.empty();
  std::string line = f.id + (r.ranks.size() > 1 && f.rank ? " (rank " + std::to_string(*f.rank) + ")" : "");
  if (!projection.empty()) line += ": " + what_if_projection(f, "\u2192", per_step ? " per step" : " per window");
  return {{"id", f.id},
          {"rank", f.rank ? json(*f.rank) : json()},
          {"severity", f.severity},
          {"title", f.title},
          {"line", line},
          {"projection", projection},
          {"description", f.what_if.description}};
}

// "12.34 ms" from a bench distribution's field, "-" without values.
std::string latency(const json& window, const char* metric, const char* field) {
  const json& d = json_at(window, metric);
  if (json_get(d, "count", 0) == 0 || !json_at(d, field).is_number()) return "-";
  return fmt::format("{:.2f} ms", json_get(d, field, 0.0));
}

json bench_figures(const json& bench) {
  const json& summary = json_at(bench, "summary");
  const json& steady = json_at(summary, "steady");
  bool valid = steady.is_object() && steady.contains("duration_s");
  const json& w = valid ? steady : json_at(summary, "all");
  if (!w.is_object()) return json();
  std::string window = valid ? "steady window" : "whole run (no steady window)";
  json figures = json::array();
  figures.push_back(figure("throughput", "output tokens/s",
                           fmt::format("{:.2f}", json_get(w, "output_tokens_per_s", 0.0)),
                           fmt::format("{}; {:.2f} requests/s, {:.2f} total tokens/s", window,
                                       json_get(w, "request_per_s", 0.0), json_get(w, "total_tokens_per_s", 0.0))));
  for (auto [key, label, metric] :
       {std::tuple{"ttft", "TTFT p50 / p99", "ttft_ms"}, std::tuple{"tpot", "TPOT p50 / p99", "tpot_ms"},
        std::tuple{"itl", "ITL p50 / p99", "itl_ms"}}) {
    figures.push_back(figure(key, label, latency(w, metric, "p50") + " / " + latency(w, metric, "p99"),
                             window + "; p90 " + latency(w, metric, "p90")));
  }
  if (const json& g = json_at(w, "goodput"); g.is_object()) {
    figures.push_back(figure("goodput", "goodput req/s", fmt::format("{:.2f}", json_get(g, "per_s", 0.0)),
                             fmt::format("{}; {} of {} requests met every SLO", window,
                                         json_get(g, "good", std::int64_t{0}), json_get(g, "total", std::int64_t{0}))));
  }
  figures.push_back(figure("in_flight", "peak in flight",
                           std::to_string(json_get(w, "peak_concurrent_requests", std::int64_t{0})),
                           fmt::format("{}; mean concurrency {:.2f}", window, json_get(w, "concurrency", 0.0))));
  std::string steady_value = valid ? fmt::format("{:.2f} s", json_get(steady, "duration_s", 0.0)) : "none";
  std::string steady_note =
      valid ? fmt::format("{} requests completed in it", json_get(steady, "completed", std::int64_t{0}))
            : json_get(steady, "note", std::string("the run had no steady window"));
  if (valid && json_at(bench, "run_start_ns").is_number() && json_at(steady, "start_ns").is_number()) {
    auto origin = static_cast<double>(json_get(bench, "run_start_ns", std::int64_t{0}));
    double from = static_cast<double>(json_get(steady, "start_ns", std::int64_t{0})) - origin;
    double to = static_cast<double>(json_get(steady, "end_ns", std::int64_t{0})) - origin;
    steady_note += fmt::format("; {:.2f} s to {:.2f} s into the run", from / 1e9, to / 1e9);
  }
  figures.push_back(figure("steady", "steady window", steady_value, steady_note));
  return figures;
}

}  // namespace

nlohmann::ordered_json report_headline(const AnalyzeReport* report, const nlohmann::ordered_json& bench) {
  json j;
  json ranks = json::array();
  if (report) {
    for (const auto& a : report->ranks) {
      ranks.push_back({{"rank", a.rank ? json(*a.rank) : json()},
                       {"label", a.rank ? "rank " + std::to_string(*a.rank) : a.file},
                       {"figures", rank_figures(a)}});
    }
  }
  j["ranks"] = std::move(ranks);
  j["top_finding"] = report ? top_finding(*report) : json();
  j["findings_without_saving"] = report && j["top_finding"].is_null() && !report->findings.empty();
  j["bench"] = bench.is_object() ? bench_figures(bench) : json();
  return j;
}

}  // namespace cuprobe
