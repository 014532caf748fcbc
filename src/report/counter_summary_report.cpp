#include "report/counter_summary_report.h"

#include <cmath>
#include <cstdio>

#include "common/units.h"
#include "report/json_number.h"

namespace cuprobe {
nlohmann::json counter_summary_json(const CounterSummary& summary) {
  nlohmann::json j;
  j["metrics"] = summary.metric_names;
  j["lost_samples"] = summary.lost_samples;
  j["gpus"] = nlohmann::json::array();
  for (const auto& g : summary.gpus) {
    nlohmann::json jg;
    jg["gpu"] = g.gpu;
    jg["rows"] = g.rows;
    jg["start_ns"] = g.first_ns;
    jg["end_ns"] = g.last_ns;
    jg["metrics"] = nlohmann::json::object();
    for (const auto& m : g.metrics) {
      jg["metrics"][m.metric] = {{"samples", m.samples},
                                 {"mean", number_or_null(m.mean)},
                                 {"p50", number_or_null(m.p50)},
                                 {"p95", number_or_null(m.p95)},
                                 {"max", number_or_null(m.max)}};
    }
    j["gpus"].push_back(std::move(jg));
  }
  return j;
}

nlohmann::json sample_summary_json(const CounterSummary& summary, const SampleRunFacts& facts) {
  nlohmann::json j = counter_summary_json(summary);
  j["schema"] = "cuprobe.sample/1";
  j["interval_ns"] = facts.interval_ns;
  j["raw_metrics"] = facts.raw_metrics;
  j["chips"] = facts.chips;
  j["skipped_metrics"] = facts.skipped_metrics;
  j["ended_by"] = facts.ended_by;
  j["restarts"] = facts.restarts;
  if (facts.command_exit_code) j["command_exit_code"] = *facts.command_exit_code;
  return j;
}

nlohmann::json counter_window_json(const CounterSummary& summary, bool steady, std::int64_t start_ns,
                                   std::int64_t end_ns) {
  nlohmann::json j = counter_summary_json(summary);
  j["window"] = steady ? "steady" : "all";
  j["start_ns"] = start_ns;
  j["end_ns"] = end_ns;
  return j;
}

std::string format_counter_summary(const CounterSummary& summary) {
  std::size_t width = 6;
  for (const auto& n : summary.metric_names) width = std::max(width, n.size());
  std::string out;
  char line[512];
  for (const auto& g : summary.gpus) {
    double seconds = static_cast<double>(g.last_ns - g.first_ns) / 1e9;
    std::snprintf(line, sizeof line, "GPU %d: %lld samples over %.1f s\n", g.gpu, static_cast<long long>(g.rows),
                  seconds);
    out += line;
    std::snprintf(line, sizeof line, "  %-*s %12s %12s %12s %12s %8s\n", static_cast<int>(width), "metric", "mean",
                  "p50", "p95", "max", "samples");
    out += line;
    for (const auto& m : g.metrics) {
      std::snprintf(line, sizeof line, "  %-*s %12s %12s %12s %12s %8lld\n", static_cast<int>(width), m.metric.c_str(),
                    format_metric_value(m.mean, m.metric).c_str(), format_metric_value(m.p50, m.metric).c_str(),
                    format_metric_value(m.p95, m.metric).c_str(), format_metric_value(m.max, m.metric).c_str(),
                    static_cast<long long>(m.samples));
      out += line;
    }
  }
  if (summary.gpus.empty()) out += "no samples\n";
  std::snprintf(line, sizeof line, "lost samples (overflow or stalled stream): %lld\n",
                static_cast<long long>(summary.lost_samples));
  out += line;
  return out;
}

}  // namespace cuprobe
