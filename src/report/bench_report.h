// The bench report: one JSON document (schema "cuprobe.bench/1") and the text
// table for people. All timestamps are CLOCK_REALTIME ns.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "load/bench_metrics.h"
#include "load/load_runner.h"
#include "load/profiler_control.h"
#include "load/server_metrics.h"

namespace cuprobe {

struct BenchReport {
  nlohmann::ordered_json settings;  // the load settings, as given
  const LoadResult* load = nullptr;
  WindowMetrics all, steady;
  SteadyWindow window;
  std::optional<ProfileOutcome> profile;
  nlohmann::json sample;    // counter summary for the steady window; null without --sample
  std::string sample_text;  // its table for people
  std::string sample_note;  // why there is no sample, when asked for
  double max_error_rate = 0;
  MetricOptions metrics;                              // percentiles and goodput SLOs asked for
  std::optional<ServerMetricsReport> server_metrics;  // with --server-metrics
  nlohmann::ordered_json identity;                    // version, host, GPUs, start time, label, metadata
};

double error_rate(const WindowMetrics& all);
bool error_rate_passed(const BenchReport& report);

nlohmann::ordered_json bench_report_json(const BenchReport& report);
std::string bench_report_text(const BenchReport& report);

// One JSON line per request (--save-requests): times in CLOCK_REALTIME ns.
nlohmann::ordered_json request_record_json(const RequestRecord& record, std::int64_t realtime_offset_ns);

}  // namespace cuprobe
