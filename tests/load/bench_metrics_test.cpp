#include "load/bench_metrics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace cuprobe {
namespace {

constexpr std::int64_t kMs = 1'000'000;

// A successful request: sent at `send` ms, content events at the given ms, ended at the last one.
RequestRecord req(double send, std::vector<double> events, std::int64_t completion_tokens = -1, bool warmup = false) {
  RequestRecord r;
  r.send_ns = r.scheduled_ns = static_cast<std::int64_t>(send * kMs);
  for (double e : events) r.content_ns.push_back(static_cast<std::int64_t>(e * kMs));
  r.end_ns = r.content_ns.empty() ? r.send_ns : r.content_ns.back();
  r.completion_tokens = completion_tokens;
  r.prompt_tokens = 10;
  r.warmup = warmup;
  return r;
}

TEST(BenchMetrics, PercentilesMatchNumpyLinear) {
  // numpy.percentile([1,2,3,4,5,6,7,8,9,10], [50, 90, 99]) == [5.5, 9.1, 9.91]
  Distribution d = summarize({10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
  EXPECT_DOUBLE_EQ(d.p50, 5.5);
  EXPECT_NEAR(d.p90, 9.1, 1e-12);
  EXPECT_NEAR(d.p99, 9.91, 1e-12);
  EXPECT_DOUBLE_EQ(d.mean, 5.5);
  EXPECT_DOUBLE_EQ(d.max, 10);
  EXPECT_EQ(d.count, 10u);
  EXPECT_EQ(summarize({}).count, 0u);
  EXPECT_DOUBLE_EQ(summarize({3}).p99, 3);
}

TEST(BenchMetrics, WholeRunDefinitions) {
  std::vector<RequestRecord> rs;
  rs.push_back(req(0, {10, 12, 14, 16}, 4));  // ttft 10, itl 2,2,2, tpot (16-10)/3 = 2, e2e 16
  rs.push_back(req(0, {20, 30}, 6));          // 2 events carry 6 tokens: tpot (30-20)/5 = 2, 3 tokens/chunk
  RequestRecord failed = req(5, {});
  failed.error = "http_500";
  failed.end_ns = 40 * kMs;
  rs.push_back(failed);
  rs.push_back(req(-100, {-90, -80}, 2, /*warmup=*/true));  // not measured
  WindowMetrics m = whole_run_metrics(rs);
  EXPECT_EQ(m.completed, 2u);
  EXPECT_EQ(m.failed, 1u);
  EXPECT_EQ(m.errors.at("http_500"), 1u);
  EXPECT_DOUBLE_EQ(m.duration_s, 0.040);  // first send 0 .. last end 40 ms
  EXPECT_DOUBLE_EQ(m.output_tokens, 10);
  EXPECT_DOUBLE_EQ(m.input_tokens, 20);
  EXPECT_DOUBLE_EQ(m.request_per_s, 2 / 0.040);
  EXPECT_DOUBLE_EQ(m.output_tokens_per_s, 10 / 0.040);
  EXPECT_DOUBLE_EQ(m.total_tokens_per_s, 30 / 0.040);
  EXPECT_EQ(m.ttft_ms.count, 2u);
  EXPECT_DOUBLE_EQ(m.ttft_ms.mean, 15);
  EXPECT_EQ(m.itl_ms.count, 4u);  // 3 gaps + 1 gap
  EXPECT_DOUBLE_EQ(m.itl_ms.max, 10);
  EXPECT_DOUBLE_EQ(m.tpot_ms.mean, 2);
  EXPECT_DOUBLE_EQ(m.e2e_ms.max, 30);
  EXPECT_DOUBLE_EQ(m.tokens_per_chunk.max, 3);
  EXPECT_EQ(m.usage_missing, 0u);
}

TEST(BenchMetrics, MissingUsageFallsBackToEventsAndIsCounted) {
  std::vector<RequestRecord> rs = {req(0, {1, 2, 3})};
  WindowMetrics m = whole_run_metrics(rs);
  EXPECT_EQ(m.usage_missing, 1u);
  EXPECT_DOUBLE_EQ(m.output_tokens, 3);
}

TEST(BenchMetrics, SingleTokenHasNoTpot) {
  WindowMetrics m = whole_run_metrics({req(0, {5}, 1)});
  EXPECT_EQ(m.tpot_ms.count, 0u);
  EXPECT_EQ(m.ttft_ms.count, 1u);
}

TEST(BenchMetrics, SteadyWindowFromFirstMeasuredEndToFirstDrainEnd) {
  // Closed loop, concurrency 2: a,b start at 0; a ends at 10 -> c sent at 10; b ends 12 -> d sent 12 (last send);
  // c ends 20 (first end after the last send: the drain starts), d ends 25.
  std::vector<RequestRecord> rs = {req(0, {5, 10}, 2), req(0, {6, 12}, 2), req(10, {15, 20}, 2), req(12, {18, 25}, 2)};
  SteadyWindow w = find_steady_window(rs);
  ASSERT_TRUE(w.valid) << w.note;
  EXPECT_EQ(w.start_ns, 10 * kMs);
  EXPECT_EQ(w.end_ns, 20 * kMs);
  WindowMetrics m = window_metrics(rs, w);
  EXPECT_DOUBLE_EQ(m.duration_s, 0.010);
  // Ended inside [10, 20]: a (at 10), b, c.
  EXPECT_EQ(m.completed, 3u);
  // Only c was sent and ended inside: its latencies alone.
  EXPECT_EQ(m.ttft_ms.count, 1u);
  EXPECT_DOUBLE_EQ(m.ttft_ms.mean, 5);
  // Events inside: a@10, b@12, c@15, c@20, d@18 = 5 events, 1 token each. Gaps inside: b none (6 out),
  // c 15->20, a none (5 out).
  EXPECT_EQ(m.content_events, 5u);
  EXPECT_DOUBLE_EQ(m.output_tokens, 5);
  EXPECT_EQ(m.itl_ms.count, 1u);
  EXPECT_DOUBLE_EQ(m.itl_ms.mean, 5);
  // Input tokens are counted when the first token arrives inside: c (15) and d (18).
  EXPECT_DOUBLE_EQ(m.input_tokens, 20);
}

TEST(BenchMetrics, NoSteadyStateWhenEverythingWasSentAtOnce) {
  std::vector<RequestRecord> rs = {req(0, {5, 10}, 2), req(0, {6, 12}, 2)};
  SteadyWindow w = find_steady_window(rs);
  EXPECT_FALSE(w.valid);
  EXPECT_NE(w.note.find("no steady state"), std::string::npos);
  EXPECT_EQ(window_metrics(rs, w).completed, 0u);
  EXPECT_FALSE(find_steady_window({}).valid);
}

TEST(BenchMetrics, QueueingTimeIsSendMinusScheduled) {
  RequestRecord r = req(10, {20, 30}, 2);
  r.scheduled_ns = 4 * kMs;
  WindowMetrics m = whole_run_metrics({r});
  EXPECT_DOUBLE_EQ(m.queue_ms.max, 6);
  EXPECT_DOUBLE_EQ(m.duration_s, 0.026);  // from the scheduled arrival
}

}  // namespace
}  // namespace cuprobe
