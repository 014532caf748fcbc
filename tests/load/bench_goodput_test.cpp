// Goodput, percentiles, standard deviation, measured concurrency and peak
// output per second: vLLM's and SGLang's definitions (docs/metrics.md).
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "load/bench_metrics.h"

namespace cuprobe {
namespace {

constexpr std::int64_t kMs = 1'000'000;

RequestRecord req(double send, std::vector<double> events, std::int64_t completion_tokens) {
  RequestRecord r;
  r.send_ns = r.scheduled_ns = static_cast<std::int64_t>(send * kMs);
  for (double e : events) r.content_ns.push_back(static_cast<std::int64_t>(e * kMs));
  r.end_ns = r.content_ns.back();
  r.completion_tokens = completion_tokens;
  r.prompt_tokens = 10;
  return r;
}

TEST(BenchGoodput, AGoodRequestMeetsEverySloGiven) {
  std::vector<RequestRecord> rs;
  rs.push_back(req(0, {100, 110, 120}, 3));  // ttft 100, tpot 10, e2e 120
  rs.push_back(req(0, {300, 400, 500}, 3));  // ttft 300, tpot 100, e2e 500
  rs.push_back(req(0, {50}, 1));             // one token: tpot 0 for goodput (vLLM)
  rs.push_back(req(0, {100, 1100}, 2));      // tpot 1000
  MetricOptions o;
  o.goodput.ttft_ms = 100;  // <= counts as met, as vLLM's `slo >= value`
  MetricOptions both = o;
  both.goodput.tpot_ms = 50;
  WindowMetrics m = whole_run_metrics(rs, o);
  EXPECT_EQ(m.judged, 4u);
  EXPECT_EQ(m.good, 3u);
  WindowMetrics b = whole_run_metrics(rs, both);
  EXPECT_EQ(b.good, 2u);  // the first and the one-token request
  EXPECT_DOUBLE_EQ(b.goodput_per_s, 2 / b.duration_s);
  // Without SLOs nothing is judged.
  EXPECT_EQ(whole_run_metrics(rs).judged, 0u);
  // A failed request is not judged (vLLM counts successful ones only).
  rs[1].error = "http_500";
  EXPECT_EQ(whole_run_metrics(rs, both).judged, 3u);
}

TEST(BenchGoodput, ParsesVllmsSloSpellings) {
  GoodputSlo slo;
  parse_goodput("ttft:200 tpot:50", slo);
  parse_goodput("e2el:3000", slo);
  EXPECT_DOUBLE_EQ(slo.ttft_ms, 200);
  EXPECT_DOUBLE_EQ(slo.tpot_ms, 50);
  EXPECT_DOUBLE_EQ(slo.e2e_ms, 3000);
  parse_goodput("e2e:10,ttft:1.5", slo);
  EXPECT_DOUBLE_EQ(slo.e2e_ms, 10);
  EXPECT_DOUBLE_EQ(slo.ttft_ms, 1.5);
  for (const char* bad : {"ttft", "ttft:", "ttft:-1", "ttft:abc", "itl:5", "ttft:5ms"}) {
    GoodputSlo s;
    EXPECT_THROW(parse_goodput(bad, s), Error) << bad;
  }
}

TEST(BenchGoodput, PercentilesStdAndTheirNames) {
  Distribution d = summarize({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {95, 99.9});
  ASSERT_EQ(d.percentiles.size(), 2u);
  EXPECT_NEAR(d.percentiles[0].second, 9.55, 1e-12);   // numpy.percentile(range(1,11), 95)
  EXPECT_NEAR(d.percentiles[1].second, 9.991, 1e-12);  // ... 99.9
  EXPECT_NEAR(d.std, std::sqrt(8.25), 1e-12);          // numpy.std (ddof 0)
  EXPECT_EQ(parse_percentiles("50,90,99.9"), (std::vector<double>{50, 90, 99.9}));
  EXPECT_THROW(parse_percentiles("50,,90"), Error);
  EXPECT_THROW(parse_percentiles("101"), Error);
  EXPECT_THROW(parse_percentiles("p99"), Error);
  EXPECT_EQ(percentile_word(99), "99");
  EXPECT_EQ(percentile_word(99.9), "99.9");
  EXPECT_EQ(percentile_word(99.99), "99.99");
}

TEST(BenchGoodput, MeasuredConcurrencyAndPeakPerSecond) {
  std::vector<RequestRecord> rs;
  // Two requests overlapping over [0, 1000] ms; a third alone in the next second.
  rs.push_back(req(0, {100, 200, 300, 400}, 4));
  rs.push_back(req(0, {500, 600, 700, 999}, 4));
  rs.push_back(req(1500, {1600, 1700}, 2));
  WindowMetrics m = whole_run_metrics(rs);
  // SGLang: sum of E2E latencies / duration = (0.4 + 0.999 + 0.2) / 1.7.
  EXPECT_NEAR(m.concurrency, (0.4 + 0.999 + 0.2) / 1.7, 1e-12);
  // vLLM: content events per 1 s bucket from the first send: 8 in [0,1), 2 in [1,2).
  EXPECT_DOUBLE_EQ(m.peak_output_per_s, 8);
  EXPECT_EQ(m.peak_concurrent_requests, 2u);
}

// A closed loop of 8: each slot sends its next request when the last one ends. 1 s buckets
// (vLLM's old count, SGLang's) see up to 16 in a second; the exact count never exceeds 8.
TEST(BenchGoodput, PeakInFlightOfAClosedLoopIsItsConcurrency) {
  std::vector<RequestRecord> rs;
  for (int slot = 0; slot < 8; ++slot) {
    double t = slot * 37.0;  // staggered starts
    for (int k = 0; k < 6; ++k) {
      double end = t + 700 + slot * 11;  // requests of 0.7-0.78 s, across bucket edges
      rs.push_back(req(t, {t + 50, end}, 2));
      t = end;  // the next request starts when this one ends
    }
  }
  WindowMetrics m = whole_run_metrics(rs);
  EXPECT_EQ(m.peak_concurrent_requests, 8u);
  // Half-open intervals: an end and a send at one instant do not overlap.
  EXPECT_EQ(peak_in_flight({{0, +1}, {10, -1}, {10, +1}, {20, -1}}), 1u);
  EXPECT_EQ(peak_in_flight({{0, +1}, {10, +1}, {10, -1}, {20, -1}}), 1u);
  EXPECT_EQ(peak_in_flight({{0, +1}, {5, +1}, {10, -1}, {20, -1}}), 2u);
  EXPECT_EQ(peak_in_flight({}), 0u);
}

}  // namespace
}  // namespace cuprobe
