#include "load/bench_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>

#include "common/error.h"
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

// vLLM's max_output_tokens_per_s: content events per 1 s bucket from the earliest send among `peak`'s requests.
// max_concurrent_requests: the exact count of requests in flight, swept over their [send, end) intervals (an end
// and a send at the same instant do not overlap), as vLLM counts it since its 1 s buckets were dropped for it.
void peak_per_second(const std::vector<const RequestRecord*>& peak, WindowMetrics& m) {
  if (peak.empty()) return;
  std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = 0;
  for (const RequestRecord* r : peak) {
    first = std::min(first, r->send_ns);
    last = std::max(last, r->end_ns);
  }
  const auto buckets = static_cast<std::size_t>(std::ceil((last - first) / 1e9)) + 1;
  std::vector<double> events(buckets, 0.0);
  auto bucket = [&](std::int64_t t) { return static_cast<std::size_t>((t - first) / 1'000'000'000); };
  std::vector<std::pair<std::int64_t, int>> edges;
  edges.reserve(peak.size() * 2);
  for (const RequestRecord* r : peak) {
    for (std::int64_t t : r->content_ns) {
      std::size_t b = bucket(t);
      if (b < buckets) events[b] += 1;
    }
    edges.emplace_back(r->send_ns, +1);
    edges.emplace_back(r->end_ns, -1);
  }
  m.peak_output_per_s = *std::max_element(events.begin(), events.end());
  m.peak_concurrent_requests = peak_in_flight(std::move(edges));
}

WindowMetrics collect(const std::vector<RequestRecord>& records, const Span& span, std::int64_t start_ns,
                      std::int64_t end_ns, const MetricOptions& options) {
  WindowMetrics m;
  m.start_ns = start_ns;
  m.end_ns = end_ns;
  m.duration_s = std::max<std::int64_t>(0, end_ns - start_ns) / 1e9;
  std::vector<double> ttft, itl, tpot, e2e, per_chunk, queue;
  std::vector<const RequestRecord*> with_latencies;
  const GoodputSlo& slo = options.goodput;
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
    with_latencies.push_back(&r);
    const double ttft_ms = (first - r.send_ns) / kNsPerMs, e2e_ms = (r.end_ns - r.send_ns) / kNsPerMs;
    // As vLLM: a request with at most one output token has TPOT 0 for goodput.
    const double tpot_ms = out > 1 ? (r.end_ns - first) / kNsPerMs / (out - 1) : 0.0;
    ttft.push_back(ttft_ms);
    e2e.push_back(e2e_ms);
    if (out > 1) tpot.push_back(tpot_ms);
    if (slo.any()) {
      ++m.judged;
      if ((slo.ttft_ms < 0 || ttft_ms <= slo.ttft_ms) && (slo.tpot_ms < 0 || tpot_ms <= slo.tpot_ms) &&
          (slo.e2e_ms < 0 || e2e_ms <= slo.e2e_ms))
        ++m.good;
    }
    per_chunk.push_back(tokens_per_event);
    queue.push_back(std::max<std::int64_t>(0, r.send_ns - r.scheduled_ns) / kNsPerMs);
  }
  if (m.duration_s > 0) {
    m.request_per_s = static_cast<double>(m.completed) / m.duration_s;
    m.input_tokens_per_s = m.input_tokens / m.duration_s;
    m.output_tokens_per_s = m.output_tokens / m.duration_s;
    m.total_tokens_per_s = (m.input_tokens + m.output_tokens) / m.duration_s;
    m.chunks_per_s = static_cast<double>(m.content_events) / m.duration_s;
    m.goodput_per_s = static_cast<double>(m.good) / m.duration_s;
    m.concurrency = std::accumulate(e2e.begin(), e2e.end(), 0.0) / 1e3 / m.duration_s;
  }
  peak_per_second(with_latencies, m);
  m.ttft_ms = summarize(std::move(ttft), options.percentiles);
  m.itl_ms = summarize(std::move(itl), options.percentiles);
  m.tpot_ms = summarize(std::move(tpot), options.percentiles);
  m.e2e_ms = summarize(std::move(e2e), options.percentiles);
  m.tokens_per_chunk = summarize(std::move(per_chunk), options.percentiles);
  m.queue_ms = summarize(std::move(queue), options.percentiles);
  return m;
}

}  // namespace

std::uint64_t peak_in_flight(std::vector<std::pair<std::int64_t, int>> edges) {
  std::sort(edges.begin(), edges.end());  // at one instant -1 (an end) sorts before +1 (a send)
  std::int64_t now = 0, peak = 0;
  for (const auto& [t, delta] : edges) {
    now += delta;
    peak = std::max(peak, now);
  }
  return static_cast<std::uint64_t>(peak);
}

Distribution summarize(std::vector<double> values, const std::vector<double>& percentiles) {
  Distribution d;
  d.count = values.size();
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  d.p50 = percentile_sorted(values, 50);
  d.p90 = percentile_sorted(values, 90);
  d.p95 = percentile_sorted(values, 95);
  d.p99 = percentile_sorted(values, 99);
  d.max = values.back();
  double squares = 0;
  for (double v : values) squares += (v - d.mean) * (v - d.mean);
  d.std = std::sqrt(squares / static_cast<double>(values.size()));
  for (double q : percentiles) d.percentiles.emplace_back(q, percentile_sorted(values, q));
  return d;
}

WindowMetrics whole_run_metrics(const std::vector<RequestRecord>& records, const MetricOptions& options) {
  std::int64_t start = std::numeric_limits<std::int64_t>::max(), end = 0;
  for (const RequestRecord& r : records) {
    if (r.warmup) continue;
    start = std::min({start, r.send_ns, r.scheduled_ns > 0 ? r.scheduled_ns : r.send_ns});
    end = std::max(end, r.end_ns);
  }
  if (end == 0) start = 0;
  return collect(records, Span{}, start, end, options);
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

WindowMetrics window_metrics(const std::vector<RequestRecord>& records, const SteadyWindow& window,
                             const MetricOptions& options) {
  if (!window.valid) return WindowMetrics{};
  return collect(records, Span{window.start_ns, window.end_ns, false}, window.start_ns, window.end_ns, options);
}

void parse_goodput(const std::string& text, GoodputSlo& slo) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find_first_of(", ", pos);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    std::size_t colon = item.find(':');
    std::string name = item.substr(0, colon);
    double value = -1;
    if (colon != std::string::npos) {
      const char* begin = item.c_str() + colon + 1;
      char* stop = nullptr;
      value = std::strtod(begin, &stop);
      if (stop == begin || *stop != '\0' || !std::isfinite(value)) value = -1;
    }
    if (value < 0) throw Error("--goodput: '" + item + "' is not NAME:MS with a non-negative number of ms", kExitUsage);
    if (name == "ttft")
      slo.ttft_ms = value;
    else if (name == "tpot")
      slo.tpot_ms = value;
    else if (name == "e2e" || name == "e2el")
      slo.e2e_ms = value;
    else
      throw Error("--goodput: unknown SLO '" + name + "' (ttft, tpot, e2e)", kExitUsage);
  }
}

std::string percentile_word(double q) {
  if (q == std::floor(q)) return std::to_string(static_cast<long long>(q));
  // Python's str(float): the shortest text that reads back the same.
  char buf[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, q);
    if (std::strtod(buf, nullptr) == q) break;
  }
  return buf;
}

std::vector<double> parse_percentiles(const std::string& text) {
  std::vector<double> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    char* stop = nullptr;
    double q = std::strtod(item.c_str(), &stop);
    if (item.empty() || *stop != '\0' || !(q >= 0 && q <= 100))
      throw Error("--percentiles: '" + item + "' is not a percentile within 0..100", kExitUsage);
    out.push_back(q);
  }
  return out;
}

}  // namespace cuprobe
