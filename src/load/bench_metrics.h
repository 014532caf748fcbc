// The numbers of a bench report, defined as SGLang's bench_serving and vLLM's
// `vllm bench serve` define them (docs/metrics.md has every definition).
// Pure functions over RequestRecords: no clocks, no I/O.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "load/request_record.h"

namespace cuprobe {

struct Distribution {
  std::size_t count = 0;
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};

// Percentiles as common/percentile.h defines them (numpy.percentile's default).
Distribution summarize(std::vector<double> values);

struct WindowMetrics {
  std::int64_t start_ns = 0, end_ns = 0;  // monotonic
  double duration_s = 0;
  std::uint64_t completed = 0, failed = 0;
  std::map<std::string, std::uint64_t> errors;  // reason → count
  double input_tokens = 0, output_tokens = 0;   // fractional in the steady window (see metrics.md)
  std::uint64_t content_events = 0;
  std::uint64_t usage_missing = 0;  // successful requests whose server reported no usage
  double request_per_s = 0, input_tokens_per_s = 0, output_tokens_per_s = 0, total_tokens_per_s = 0;
  double chunks_per_s = 0;
  Distribution ttft_ms, itl_ms, tpot_ms, e2e_ms, tokens_per_chunk, queue_ms;
};

struct SteadyWindow {
  bool valid = false;
  std::int64_t start_ns = 0, end_ns = 0;  // monotonic
  std::string note;                       // why there is none, when !valid
};

// Measured requests only (warm-up excluded), from the first send to the last end.
WindowMetrics whole_run_metrics(const std::vector<RequestRecord>& records);

// Starts when the first measured request ends (every slot has then gone through a
// whole request: the ramp-up is over); ends when the first request of the drain
// ends (the first end after the last send).
SteadyWindow find_steady_window(const std::vector<RequestRecord>& records);

// Latencies of requests sent and ended inside the window, gaps and tokens that
// arrived inside it, requests that ended inside it.
WindowMetrics window_metrics(const std::vector<RequestRecord>& records, const SteadyWindow& window);

}  // namespace cuprobe
