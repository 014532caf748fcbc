#include "load/bench_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "common/percentile.h"

namespace cuprobe {
namespace {

constexpr double kNsPerMs = 1e6;

// What to count of one request: all of it, or the part inside a window.
struct Span {
  std::int64_t start = std::numeric_limits<std::int64_t>::min();
  std::int64_t end = std::numeric_limits<std::int64_t>::max();
  bool whole = true;
  bool contains(std::int64_t t) const { return t >= start && t <= end; }
};

WindowMetrics collect(const std::vector<RequestRecord>& records, const Span& span, std::int64_t start_ns,
                      std::int64_t end_ns) {
  WindowMetrics m;
  m.start_ns = start_ns;
  m.end_ns = end_ns;
  m.duration_s = std::max<std::int64_t>(0, end_ns - start_ns) / 1e9;
  std::vector<double> ttft, itl, tpot, e2e, per_chunk, queue;
  for (const RequestRecord& r : records) {
    if (r.warmup) continue;
    if (!span.contains(r.end_ns)) {
      // Still count its gaps and tokens that arrived inside the window (below).
      if (span.whole) continue;
    } else if (r.ok()) {
      ++m.completed;
    } else {
      ++m.failed;
      ++m.errors[r.error];
    }
    if (!r.ok() || r.content_ns.empty()) continue;
    const std::int64_t first = r.content_ns.front();
    const double out = static_cast<double>(r.output_tokens());
    const double tokens_per_event = out / static_cast<double>(r.content_count());
    // Events and tokens that reached the client inside the window.
    std::size_t inside = 0;
    for (std::size_t i = 0; i < r.content_ns.size(); ++i) {
      if (!span.contains(r.content_ns[i])) continue;
      ++inside;
      if (i > 0 && span.contains(r.content_ns[i - 1]))
        itl.push_back((r.content_ns[i] - r.content_ns[i - 1]) / kNsPerMs);
    }
    m.content_events += span.whole ? static_cast<std::uint64_t>(r.content_count()) : inside;
    m.output_tokens += span.whole ? out : tokens_per_event * static_cast<double>(inside);
    if (span.contains(first) && r.input_tokens() > 0) m.input_tokens += static_cast<double>(r.input_tokens());
    // Per-request latencies: only requests wholly inside the window.
    if (!(span.contains(r.send_ns) && span.contains(r.end_ns))) continue;
    if (!r.usage_reported()) ++m.usage_missing;
    ttft.push_back((first - r.send_ns) / kNsPerMs);
    e2e.push_back((r.end_ns - r.send_ns) / kNsPerMs);
    if (out > 1) tpot.push_back((r.end_ns - first) / kNsPerMs / (out - 1));
    per_chunk.push_back(tokens_per_event);
    queue.push_back(std::max<std::int64_t>(0, r.send_ns - r.scheduled_ns) / kNsPerMs);
  }
  if (m.duration_s > 0) {
    m.request_per_s = static_cast<double>(m.completed) / m.duration_s;
    m.input_tokens_per_s = m.input_tokens / m.duration_s;
    m.output_tokens_per_s = m.output_tokens / m.duration_s;
    m.total_tokens_per_s = (m.input_tokens + m.output_tokens) / m.duration_s;
    m.chunks_per_s = static_cast<double>(m.content_events) / m.duration_s;
  }
  m.ttft_ms = summarize(std::move(ttft));
  m.itl_ms = summarize(std::move(itl));
  m.tpot_ms = summarize(std::move(tpot));
  m.e2e_ms = summarize(std::move(e2e));
  m.tokens_per_chunk = summarize(std::move(per_chunk));
  m.queue_ms = summarize(std::move(queue));
  return m;
}

}  // namespace

Distribution summarize(std::vector<double> values) {
  Distribution d;
  d.count = values.size();
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  d.p50 = percentile_sorted(values, 50);
  d.p90 = percentile_sorted(values, 90);
  d.p99 = percentile_sorted(values, 99);
  d.max = values.back();
  return d;
}

WindowMetrics whole_run_metrics(const std::vector<RequestRecord>& records) {
  std::int64_t start = std::numeric_limits<std::int64_t>::max(), end = 0;
  for (const RequestRecord& r : records) {
    if (r.warmup) continue;
    start = std::min({start, r.send_ns, r.scheduled_ns > 0 ? r.scheduled_ns : r.send_ns});
    end = std::max(end, r.end_ns);
  }
  if (end == 0) start = 0;
  return collect(records, Span{}, start, end);
}

SteadyWindow find_steady_window(const std::vector<RequestRecord>& records) {
  SteadyWindow w;
  std::int64_t first_measured_end = std::numeric_limits<std::int64_t>::max();
  std::int64_t last_send = 0;
  for (const RequestRecord& r : records) {
    last_send = std::max(last_send, r.send_ns);
    if (!r.warmup) first_measured_end = std::min(first_measured_end, r.end_ns);
  }
  std::int64_t drain_end = std::numeric_limits<std::int64_t>::max();
  for (const RequestRecord& r : records) {
    if (r.end_ns > last_send) drain_end = std::min(drain_end, r.end_ns);
  }
  if (first_measured_end == std::numeric_limits<std::int64_t>::max()) {
    w.note = "no measured request";
    return w;
  }
  if (drain_end == std::numeric_limits<std::int64_t>::max() || drain_end <= first_measured_end) {
    w.note =
        "no steady state: the last request was sent before the first measured one ended "
        "(send more requests than --concurrency, or run longer)";
    return w;
  }
  w.valid = true;
  w.start_ns = first_measured_end;
  w.end_ns = drain_end;
  return w;
}

WindowMetrics window_metrics(const std::vector<RequestRecord>& records, const SteadyWindow& window) {
  if (!window.valid) return WindowMetrics{};
  return collect(records, Span{window.start_ns, window.end_ns, false}, window.start_ns, window.end_ns);
}

}  // namespace cuprobe
