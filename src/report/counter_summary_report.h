// A counter summary for programs (`cuprobe bench` puts it under "sample") and people.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "collect/counters/counter_summary.h"

namespace cuprobe {

// {"metrics":[...],"lost_samples":N,"gpus":[{"gpu":0,"rows":N,"start_ns":..,"end_ns":..,
//   "metrics":{"NAME":{"samples":N,"mean":x,"p50":x,"p95":x,"max":x}}}]}; NaN becomes null.
nlohmann::json counter_summary_json(const CounterSummary& summary);

// What `cuprobe sample --summary-json` adds to the summary (schema "cuprobe.sample/1").
struct SampleRunFacts {
  std::int64_t interval_ns = 0;
  std::vector<std::string> raw_metrics, chips, skipped_metrics;
  std::string ended_by;
  int restarts = 0;
  std::optional<int> command_exit_code;  // when a command ran and ended
};
nlohmann::json sample_summary_json(const CounterSummary& summary, const SampleRunFacts& facts);

// bench's "sample": the summary of the rows inside [start_ns, end_ns], the steady window or else the whole run.
nlohmann::json counter_window_json(const CounterSummary& summary, bool steady, std::int64_t start_ns,
                                   std::int64_t end_ns);

// Table for people: one block per GPU, one line per metric.
std::string format_counter_summary(const CounterSummary& summary);

}  // namespace cuprobe
