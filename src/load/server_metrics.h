// --server-metrics: the server's own Prometheus /metrics, scraped at the
// steady window's start and end (with the same headers as every other
// request), and the vLLM (`vllm:`) and SGLang (`sglang:`) families compared:
// gauges at the end and as the mean of start and end, counters as deltas and
// rates, histograms as the count, sum and mean of what was observed between.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/prometheus_text.h"
#include "net/http_client_config.h"
#include "net/http_url.h"

namespace cuprobe {

struct MetricsSnapshot {
  bool taken = false;                         // a scrape was asked for
  bool ok = false;                            // 200 and parsed
  std::int64_t sent_ns = 0, answered_ns = 0;  // monotonic
  std::string note;                           // why not ok
  PrometheusPage scrape;
};

struct ServerGauge {
  std::string name, labels, type;  // labels as written: {engine="0"}
  double start = 0, end = 0, mean = 0;
};
struct ServerCounter {
  std::string name, labels;
  double start = 0, end = 0, delta = 0, per_s = 0;
  bool reset = false;  // went down: the server restarted between the scrapes
};
struct ServerHistogram {
  std::string name, labels, type;       // the family (no _sum/_count); histogram or summary
  double count = 0, sum = 0, mean = 0;  // observed between the scrapes; mean = sum / count
};

struct ServerMetricsReport {
  bool valid = false;
  std::string note;  // why there is nothing, or what was odd (parse errors)
  double interval_s = 0;
  std::int64_t start_ns = 0, end_ns = 0;  // monotonic: when each scrape was answered
  std::vector<ServerGauge> gauges;
  std::vector<ServerCounter> counters;
  std::vector<ServerHistogram> histograms;
  std::map<std::string, double> derived;  // ratios of counter deltas, e.g. prefix_cache_hit_rate
};

// True for the families reported: "vllm:..." and "sglang:...".
bool engine_metric(const std::string& family);

ServerMetricsReport compare_server_metrics(const MetricsSnapshot& start, const MetricsSnapshot& end);

// GET /metrics on a thread of its own, so the load loop never waits.
class ServerMetricsScraper {
 public:
  ServerMetricsScraper(HttpUrl server, HttpClientConfig client, std::chrono::nanoseconds timeout);
  ~ServerMetricsScraper();
  void request_start();
  void request_end();
  ServerMetricsReport finish();  // waits for both scrapes

 private:
  void scrape(MetricsSnapshot& into);
  HttpUrl server_;
  HttpClientConfig client_;
  std::chrono::nanoseconds timeout_;
  std::mutex mu_;
  MetricsSnapshot start_, end_;
  std::vector<std::thread> threads_;
};

}  // namespace cuprobe
