#include "load/server_metrics.h"

#include <cmath>

#include "common/clock.h"
#include "common/utf8.h"
#include "net/http_fetch.h"

namespace cuprobe {
namespace {

struct Keyed {
  std::string name, labels;
  double value;
};

std::map<std::string, Keyed> by_key(const PrometheusPage& s) {
  std::map<std::string, Keyed> out;
  for (const PrometheusSample& p : s.samples) {
    std::string labels = prometheus_labels_text(p.labels);
    out[p.name + labels] = Keyed{p.name, labels, p.value};
  }
  return out;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Δa / Δb over counters named with or without "_total", summed over label sets.
void ratio(const ServerMetricsReport& r, const std::string& a, const std::string& b, const std::string& as,
           std::map<std::string, double>& out) {
  double da = 0, db = 0;
  bool found_a = false, found_b = false;
  for (const ServerCounter& c : r.counters) {
    if (c.name == a || c.name == a + "_total") {
      da += c.delta;
      found_a = true;
    }
    if (c.name == b || c.name == b + "_total") {
      db += c.delta;
      found_b = true;
    }
  }
  if (found_a && found_b && db > 0) out[as] = da / db;
}

}  // namespace

bool engine_metric(const std::string& family) { return family.starts_with("vllm:") || family.starts_with("sglang:"); }

ServerMetricsReport compare_server_metrics(const MetricsSnapshot& start, const MetricsSnapshot& end) {
  ServerMetricsReport r;
  if (!start.taken || !end.taken) {
    r.note = "not scraped: the run had no steady window";
    return r;
  }
  if (!start.ok || !end.ok) {
    r.note = !start.ok ? "start scrape: " + start.note : "end scrape: " + end.note;
    return r;
  }
  r.start_ns = start.answered_ns;
  r.end_ns = end.answered_ns;
  r.interval_s = (end.answered_ns - start.answered_ns) / 1e9;
  std::map<std::string, Keyed> a = by_key(start.scrape), b = by_key(end.scrape);
  std::map<std::string, ServerHistogram> hist;
  for (const auto& [key, e] : b) {
    auto [family, type] = prometheus_family(end.scrape, e.name);
    if (!engine_metric(family)) continue;
    auto it = a.find(key);
    if (it == a.end()) continue;  // appeared between the scrapes: no start to compare with
    double s = it->second.value;
    if (type == "counter") {
      ServerCounter c{e.name, e.labels, s, e.value, e.value - s, 0, false};
      if (c.delta < 0) {
        c.reset = true;
        c.delta = e.value;
      }
      c.per_s = r.interval_s > 0 ? c.delta / r.interval_s : 0;
      r.counters.push_back(c);
    } else if (type == "histogram" || type == "summary") {
      bool is_sum = ends_with(e.name, "_sum"), is_count = ends_with(e.name, "_count");
      if (!is_sum && !is_count) continue;  // buckets and quantiles: the mean says enough here
      ServerHistogram& h = hist[family + e.labels];
      h.name = family;
      h.labels = e.labels;
      h.type = type;
      (is_sum ? h.sum : h.count) = e.value - s;
    } else {
      r.gauges.push_back(ServerGauge{e.name, e.labels, type, s, e.value, (s + e.value) / 2});
    }
  }
  for (auto& [key, h] : hist) {
    h.mean = h.count > 0 ? h.sum / h.count : 0;
    r.histograms.push_back(h);
  }
  ratio(r, "vllm:prefix_cache_hits", "vllm:prefix_cache_queries", "vllm_prefix_cache_hit_rate", r.derived);
  ratio(r, "vllm:spec_decode_num_accepted_tokens", "vllm:spec_decode_num_draft_tokens",
        "vllm_spec_decode_acceptance_rate", r.derived);
  std::size_t errors = start.scrape.errors.size() + end.scrape.errors.size();
  if (errors > 0) {
    r.note = std::to_string(errors) + " unreadable line(s) skipped; first: " +
             (start.scrape.errors.empty() ? end.scrape.errors : start.scrape.errors).front();
  }
  r.valid = true;
  if (r.gauges.empty() && r.counters.empty() && r.histograms.empty()) {
    r.note = "the server's /metrics has no vllm: or sglang: metrics";
  }
  return r;
}

ServerMetricsScraper::ServerMetricsScraper(HttpUrl server, HttpClientConfig client, std::chrono::nanoseconds timeout)
    : server_(std::move(server)), client_(std::move(client)), timeout_(timeout) {}

ServerMetricsScraper::~ServerMetricsScraper() {
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void ServerMetricsScraper::scrape(MetricsSnapshot& into) {
  MetricsSnapshot snap;
  snap.taken = true;
  snap.sent_ns = mono_ns();
  HttpFetchResult r = http_fetch(server_, client_, "GET", server_.path + "/metrics", "", timeout_);
  snap.answered_ns = mono_ns();
  if (!r.responded) {
    snap.note = repair_utf8(r.error + ": " + r.detail);
  } else if (r.status != 200) {
    snap.note = "/metrics answered " + std::to_string(r.status);
  } else {
    snap.ok = true;
    snap.scrape = read_prometheus_text(r.body);
  }
  std::lock_guard<std::mutex> lock(mu_);
  into = std::move(snap);
}

void ServerMetricsScraper::request_start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (start_.taken || !threads_.empty()) return;
  start_.taken = true;
  threads_.emplace_back([this] { scrape(start_); });
}

void ServerMetricsScraper::request_end() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!start_.taken || end_.taken) return;  // no start: no window to compare over
  end_.taken = true;
  threads_.emplace_back([this] { scrape(end_); });
}

ServerMetricsReport ServerMetricsScraper::finish() {
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
  return compare_server_metrics(start_, end_);
}

}  // namespace cuprobe
