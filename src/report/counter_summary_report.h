// A counter summary for programs (`cuprobe bench` puts it under "sample") and people.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "collect/counters/counter_summary.h"

namespace cuprobe {

// {"metrics":[...],"lost_samples":N,"gpus":[{"gpu":0,"rows":N,"start_ns":..,"end_ns":..,
//   "metrics":{"NAME":{"samples":N,"mean":x,"p50":x,"p95":x,"max":x}}}]}; NaN becomes null.
nlohmann::json counter_summary_json(const CounterSummary& summary);

// Table for people: one block per GPU, one line per metric.
std::string format_counter_summary(const CounterSummary& summary);

}  // namespace cuprobe
