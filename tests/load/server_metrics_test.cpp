#include "load/server_metrics.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

MetricsSnapshot snap(const std::string& text, std::int64_t at_ns) {
  MetricsSnapshot s;
  s.taken = s.ok = true;
  s.sent_ns = s.answered_ns = at_ns;
  s.scrape = read_prometheus_text(text);
  return s;
}

std::string vllm(double running, double tokens, double hits, double queries, double ttft_count, double ttft_sum) {
  return "# TYPE vllm:num_requests_running gauge\n"
         "vllm:num_requests_running{engine=\"0\"} " +
         std::to_string(running) +
         "\n"
         "# TYPE vllm:generation_tokens_total counter\n"
         "vllm:generation_tokens_total{engine=\"0\"} " +
         std::to_string(tokens) +
         "\n"
         "# TYPE vllm:prefix_cache_hits_total counter\n"
         "vllm:prefix_cache_hits_total " +
         std::to_string(hits) +
         "\n"
         "# TYPE vllm:prefix_cache_queries_total counter\n"
         "vllm:prefix_cache_queries_total " +
         std::to_string(queries) +
         "\n"
         "# TYPE vllm:time_to_first_token_seconds histogram\n"
         "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"} " +
         std::to_string(ttft_count) +
         "\n"
         "vllm:time_to_first_token_seconds_count " +
         std::to_string(ttft_count) +
         "\n"
         "vllm:time_to_first_token_seconds_sum " +
         std::to_string(ttft_sum) +
         "\n"
         "# TYPE process_open_fds gauge\nprocess_open_fds 5\n";
}

TEST(ServerMetrics, GaugesCountersAndHistogramsOverTheWindow) {
  ServerMetricsReport r = compare_server_metrics(snap(vllm(4, 1000, 10, 100, 20, 1.0), 1'000'000'000),
                                                 snap(vllm(8, 3000, 70, 300, 60, 5.0), 3'000'000'000));
  ASSERT_TRUE(r.valid) << r.note;
  EXPECT_DOUBLE_EQ(r.interval_s, 2.0);
  ASSERT_EQ(r.gauges.size(), 1u);  // process_open_fds is no engine family
  EXPECT_EQ(r.gauges[0].name, "vllm:num_requests_running");
  EXPECT_EQ(r.gauges[0].labels, "{engine=\"0\"}");
  EXPECT_DOUBLE_EQ(r.gauges[0].end, 8);
  EXPECT_DOUBLE_EQ(r.gauges[0].mean, 6);
  ASSERT_EQ(r.counters.size(), 3u);
  for (const ServerCounter& c : r.counters) {
    if (c.name == "vllm:generation_tokens_total") {
      EXPECT_DOUBLE_EQ(c.delta, 2000);
      EXPECT_DOUBLE_EQ(c.per_s, 1000);
    }
  }
  ASSERT_EQ(r.histograms.size(), 1u);
  EXPECT_EQ(r.histograms[0].name, "vllm:time_to_first_token_seconds");
  EXPECT_DOUBLE_EQ(r.histograms[0].count, 40);
  EXPECT_DOUBLE_EQ(r.histograms[0].mean, 0.1);
  EXPECT_DOUBLE_EQ(r.derived.at("vllm_prefix_cache_hit_rate"), 0.3);
}

TEST(ServerMetrics, ACounterThatWentDownIsAReset) {
  ServerMetricsReport r =
      compare_server_metrics(snap(vllm(0, 5000, 0, 0, 0, 0), 0), snap(vllm(0, 300, 0, 0, 0, 0), 1'000'000'000));
  for (const ServerCounter& c : r.counters) {
    if (c.name != "vllm:generation_tokens_total") continue;
    EXPECT_TRUE(c.reset);
    EXPECT_DOUBLE_EQ(c.delta, 300);
  }
}

TEST(ServerMetrics, MissingOrFailedScrapesSayWhy) {
  MetricsSnapshot none;
  EXPECT_FALSE(compare_server_metrics(none, none).valid);
  MetricsSnapshot failed;
  failed.taken = true;
  failed.note = "/metrics answered 404";
  ServerMetricsReport r = compare_server_metrics(failed, snap("", 0));
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.note.find("404"), std::string::npos);
  r = compare_server_metrics(snap("other 1\n", 0), snap("other 2\n", 1));
  EXPECT_TRUE(r.valid);
  EXPECT_NE(r.note.find("no vllm: or sglang:"), std::string::npos);
}

}  // namespace
}  // namespace cuprobe
