#include <gtest/gtest.h>

#include <cmath>

#include "common/prometheus_text.h"

namespace cuprobe {
namespace {

TEST(PrometheusTextTolerant, CommentsLabelsEscapesAndSpecialValues) {
  PrometheusPage s = read_prometheus_text(
      "# HELP vllm:num_requests_running Number of requests.\n"
      "# TYPE vllm:num_requests_running gauge\n"
      "vllm:num_requests_running{model_name=\"m\",engine=\"0\"} 3.0\n"
      "# a free comment\n"
      "\n"
      "odd{path=\"a\\\\b\",quote=\"say \\\"hi\\\"\",nl=\"x\\ny\",} 1 1700000000000\r\n"
      "plain +Inf\n"
      "nan_metric NaN\n"
      "neg -Inf\n");
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  ASSERT_EQ(s.samples.size(), 5u);
  EXPECT_EQ(s.samples[0].name, "vllm:num_requests_running");
  EXPECT_EQ(s.samples[0].labels.size(), 2u);
  EXPECT_EQ(s.samples[0].labels[0].second, "m");
  EXPECT_DOUBLE_EQ(s.samples[0].value, 3.0);
  EXPECT_EQ(s.samples[1].labels[0].second, "a\\b");
  EXPECT_EQ(s.samples[1].labels[1].second, "say \"hi\"");
  EXPECT_EQ(s.samples[1].labels[2].second, "x\ny");
  EXPECT_TRUE(std::isinf(s.samples[2].value));
  EXPECT_TRUE(std::isnan(s.samples[3].value));
  EXPECT_LT(s.samples[4].value, 0);
  EXPECT_EQ(s.types.at("vllm:num_requests_running"), "gauge");
  // Written back as Prometheus writes labels.
  EXPECT_EQ(prometheus_labels_text(s.samples[1].labels), "{path=\"a\\\\b\",quote=\"say \\\"hi\\\"\",nl=\"x\\ny\"}");
}

TEST(PrometheusTextTolerant, FamiliesOfHistogramsAndCounters) {
  PrometheusPage s = read_prometheus_text(
      "# TYPE vllm:e2e_request_latency_seconds histogram\n"
      "vllm:e2e_request_latency_seconds_bucket{le=\"0.5\"} 2\n"
      "vllm:e2e_request_latency_seconds_sum 1.5\n"
      "vllm:e2e_request_latency_seconds_count 4\n"
      "# TYPE vllm:num_preemptions counter\n"
      "vllm:num_preemptions_total 7\n"
      "# TYPE sglang:generation_tokens_total counter\n"
      "sglang:generation_tokens_total 9\n");
  ASSERT_TRUE(s.errors.empty());
  EXPECT_EQ(prometheus_family(s, "vllm:e2e_request_latency_seconds_bucket"),
            (std::pair<std::string, std::string>{"vllm:e2e_request_latency_seconds", "histogram"}));
  EXPECT_EQ(prometheus_family(s, "vllm:e2e_request_latency_seconds_sum").second, "histogram");
  EXPECT_EQ(prometheus_family(s, "vllm:num_preemptions_total").second, "counter");
  EXPECT_EQ(prometheus_family(s, "sglang:generation_tokens_total").second, "counter");
  EXPECT_EQ(prometheus_family(s, "unknown_metric").second, "untyped");
}

TEST(PrometheusTextTolerant, UnreadableLinesAreSkippedWithTheirLineNumber) {
  PrometheusPage s = read_prometheus_text(
      "good 1\n"
      "bad{label=\"open} 2\n"
      "worse{=\"x\"} 3\n"
      "novalue\n"
      "text abc\n"
      "# TYPE onlyname\n"
      "trailing 1 2 3\n"
      "also_good{a=\"b\"} 4\n");
  ASSERT_EQ(s.samples.size(), 2u);
  EXPECT_EQ(s.samples[1].name, "also_good");
  ASSERT_EQ(s.errors.size(), 6u);
  EXPECT_EQ(s.errors[0].rfind("line 2:", 0), 0u) << s.errors[0];
  EXPECT_EQ(s.errors[5].rfind("line 7:", 0), 0u) << s.errors[5];
}

TEST(PrometheusTextTolerant, AnyBytesParseWithoutCrashing) {
  std::string seed = "# TYPE a counter\na_total{x=\"1\\\"\"} 1e3 17\nb{} NaN\n# HELP c\nc{le=\"+Inf\"} +Inf\n";
  std::uint64_t state = 1;
  for (int round = 0; round < 2000; ++round) {
    std::string text = seed;
    for (int k = 0; k < 4; ++k) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      std::size_t at = (state >> 33) % text.size();
      text[at] = static_cast<char>(state >> 56);
    }
    text.resize((state >> 20) % (text.size() + 1));
    PrometheusPage s = read_prometheus_text(text);
    for (const PrometheusSample& p : s.samples) EXPECT_FALSE(p.name.empty());
  }
}

}  // namespace
}  // namespace cuprobe
