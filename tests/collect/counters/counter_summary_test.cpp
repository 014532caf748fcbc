#include "collect/counters/counter_summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "report/counter_summary_report.h"

namespace cuprobe::test {
namespace {

CounterRow row(int gpu, std::int64_t t, std::vector<double> v) {
  CounterRow r;
  r.gpu = gpu;
  r.start_ns = t;
  r.end_ns = t + 10;
  r.values = std::move(v);
  return r;
}

TEST(CounterSummary, MeanPercentilesMaxPerGpuAndMetric) {
  std::vector<CounterRow> rows;
  for (int i = 1; i <= 100; ++i) rows.push_back(row(1, i * 10, {static_cast<double>(i), 5}));
  rows.push_back(row(0, 0, {42, std::nan("")}));
  auto s = summarize_counters({"a", "b"}, rows, 3);
  ASSERT_EQ(s.gpus.size(), 2u);
  EXPECT_EQ(s.gpus[0].gpu, 0);  // ascending GPU index
  const auto& a = s.gpus[1].metrics[0];
  EXPECT_EQ(a.samples, 100);
  EXPECT_DOUBLE_EQ(a.mean, 50.5);
  EXPECT_DOUBLE_EQ(a.p50, 50.5);  // common/percentile.h: interpolated, as analyze and bench
  EXPECT_NEAR(a.p95, 95.05, 1e-9);
  EXPECT_DOUBLE_EQ(a.max, 100);
  EXPECT_EQ(s.gpus[1].rows, 100);
  EXPECT_EQ(s.gpus[1].first_ns, 10);
  EXPECT_EQ(s.gpus[1].last_ns, 1010);
  // A metric never read has no statistics, not zeros.
  const auto& b0 = s.gpus[0].metrics[1];
  EXPECT_EQ(b0.samples, 0);
  EXPECT_TRUE(std::isnan(b0.mean));
  EXPECT_TRUE(std::isnan(b0.max));
  EXPECT_EQ(s.lost_samples, 3);
}

TEST(CounterSummary, RowsOfTheWrongWidthAreIgnored) {
  auto s = summarize_counters({"a", "b"}, {row(0, 0, {1}), row(0, 1, {1, 2, 3}), row(0, 2, {4, 5})});
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].rows, 1);
  EXPECT_DOUBLE_EQ(s.gpus[0].metrics[0].mean, 4);
}

TEST(CounterSummary, JsonHasNullForUnreadAndTheSchemaFields) {
  auto s = summarize_counters({"a", "b"}, {row(2, 0, {1.5, std::nan("")})}, 0);
  auto j = counter_summary_json(s);
  EXPECT_EQ(j["metrics"][1], "b");
  EXPECT_EQ(j["gpus"][0]["gpu"], 2);
  EXPECT_EQ(j["gpus"][0]["metrics"]["a"]["mean"], 1.5);
  EXPECT_TRUE(j["gpus"][0]["metrics"]["b"]["mean"].is_null());
  EXPECT_EQ(j["gpus"][0]["metrics"]["b"]["samples"], 0);
  EXPECT_EQ(j["lost_samples"], 0);
}

TEST(CounterSummary, TableShowsDashForUnreadAndUnitsForRates) {
  auto s = summarize_counters({"tensor_active_pct", "dram_read_bytes_per_s"}, {row(0, 0, {93.25, 2.1e12})}, 7);
  std::string t = format_counter_summary(s);
  EXPECT_NE(t.find("93.2"), std::string::npos);
  EXPECT_NE(t.find("2.1 TB/s"), std::string::npos);
  EXPECT_NE(t.find("lost samples (overflow or stalled stream): 7"), std::string::npos);
  auto empty = summarize_counters({"x"}, {row(0, 0, {std::nan("")})});
  EXPECT_NE(format_counter_summary(empty).find(" - "), std::string::npos);
}

TEST(QuantileSketch, ExactWhileSmallAndCloseWhenLarge) {
  QuantileSketch q;
  EXPECT_TRUE(std::isnan(q.quantile(50)));
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> d(0, 100);
  std::vector<double> all;
  for (int i = 0; i < 200000; ++i) {
    double v = d(rng);
    all.push_back(v);
    q.add(v);
  }
  q.add(std::nan(""));  // ignored
  std::sort(all.begin(), all.end());
  EXPECT_EQ(q.count(), 200000);
  EXPECT_NEAR(q.quantile(50), all[99999], all[99999] * 0.006);
  EXPECT_NEAR(q.quantile(95), all[189999], all[189999] * 0.006);
  EXPECT_DOUBLE_EQ(q.max(), all.back());
  // Zeros and negatives keep their order in the histogram.
  QuantileSketch z;
  for (int i = 0; i < 5000; ++i) z.add(i % 2 ? 0.0 : -1.0);
  EXPECT_LT(z.quantile(25), 0);
  EXPECT_EQ(z.quantile(95), 0);
}

TEST(QuantileSketch, HistogramInterpolatesBetweenRanksLikeTheExactPath) {
  QuantileSketch q;
  for (int i = 0; i < 5000; ++i) q.add(i < 2500 ? 1.0 : 2.0);  // past kExactLimit: histogram
  // Rank 0.5 * 4999 = 2499.5 lies between the last 1 and the first 2.
  EXPECT_NEAR(q.quantile(50), 1.5, 1.5 * 0.006);
  EXPECT_NEAR(q.quantile(0), 1.0, 0.006);
  EXPECT_DOUBLE_EQ(q.quantile(100), 2.0);  // capped at the exact max
}

TEST(CounterSummarizer, MemoryIsBoundedForLongRuns) {
  CounterSummarizer s({"a"});
  for (int i = 0; i < 300000; ++i) s.add(row(0, i, {static_cast<double>(i % 100)}));
  auto sum = s.summary();
  EXPECT_EQ(sum.gpus[0].metrics[0].samples, 300000);
  EXPECT_NEAR(sum.gpus[0].metrics[0].p50, 49, 0.5);
  EXPECT_NEAR(sum.gpus[0].metrics[0].mean, 49.5, 1e-9);
}

}  // namespace
}  // namespace cuprobe::test
