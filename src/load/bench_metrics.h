// The numbers of a bench report, defined as SGLang's bench_serving and vLLM's
// `vllm bench serve` define them (docs/metrics.md has every definition).
// Pure functions over RequestRecords: no clocks, no I/O.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "load/request_record.h"

namespace cuprobe {

struct Distribution {
  std::size_t count = 0;
  double mean = 0, p50 = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;
  double std = 0;                                      // population standard deviation (numpy.std's default, ddof = 0)
  std::vector<std::pair<double, double>> percentiles;  // (q, value) for every q asked for
};

// Percentiles as common/percentile.h defines them (numpy.percentile's default);
// `percentiles` lists the extra q's (0..100) to report.
Distribution summarize(std::vector<double> values, const std::vector<double>& percentiles = {});

// vLLM's --goodput: a request is good when it meets every SLO given (ms; < 0 = not given).
struct GoodputSlo {
  double ttft_ms = -1, tpot_ms = -1, e2e_ms = -1;
  bool any() const { return ttft_ms >= 0 || tpot_ms >= 0 || e2e_ms >= 0; }
};

// "ttft:MS", "tpot:MS", "e2e:MS" (or vLLM's "e2el:MS"), several separated by
// commas or spaces; throws cuprobe::Error (usage) on anything else.
void parse_goodput(const std::string& text, GoodputSlo& slo);
// "50,90,95,99,99.9"; throws cuprobe::Error (usage) on anything else.
std::vector<double> parse_percentiles(const std::string& text);

// How vLLM names percentile q in its keys: "99", "99.9" (p99_ttft_ms, p99.9_ttft_ms).
std::string percentile_word(double q);

struct MetricOptions {
  std::vector<double> percentiles = {50, 90, 99};
  GoodputSlo goodput;
};

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
  // vLLM's goodput: requests (with latencies, see metrics.md) that met every SLO.
  std::uint64_t good = 0, judged = 0;
  double goodput_per_s = 0;
  // Sum of the latencies of the requests with latencies over the duration (SGLang's "concurrency").
  double concurrency = 0;
  // vLLM's max_output_tokens_per_s: content events per 1 s bucket from the earliest send of those requests.
  double peak_output_per_s = 0;
  // vLLM's max_concurrent_requests: the most requests in flight at once, exactly (peak_in_flight).
  std::uint64_t peak_concurrent_requests = 0;
};

// The most intervals open at once, from (time, +1 at a start / -1 at an end) edges;
// intervals are half-open: one ending when another starts does not overlap it.
std::uint64_t peak_in_flight(std::vector<std::pair<std::int64_t, int>> edges);

struct SteadyWindow {
  bool valid = false;
  std::int64_t start_ns = 0, end_ns = 0;  // monotonic
  std::string note;                       // why there is none, when !valid
};

// Measured requests only (warm-up excluded), from the first send to the last end.
WindowMetrics whole_run_metrics(const std::vector<RequestRecord>& records, const MetricOptions& options = {});

// Starts when the first measured request ends (every slot has then gone through a
// whole request: the ramp-up is over); ends when the first request of the drain
// ends (the first end after the last send).
SteadyWindow find_steady_window(const std::vector<RequestRecord>& records);

// Latencies of requests sent and ended inside the window, gaps and tokens that
// arrived inside it, requests that ended inside it.
WindowMetrics window_metrics(const std::vector<RequestRecord>& records, const SteadyWindow& window,
                             const MetricOptions& options = {});

}  // namespace cuprobe
