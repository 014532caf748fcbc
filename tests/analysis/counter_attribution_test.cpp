#include "analysis/counter_attribution.h"

#include <gtest/gtest.h>

#include <cmath>

namespace cuprobe {
namespace {

void add_kernel(Profile& p, const char* name, TimeNs start, TimeNs end, int device = 0) {
  GpuActivity a;
  a.name = p.strings.intern(name);
  a.start = start;
  a.end = end;
  a.device = device;
  p.gpu.push_back(a);
}

void add_sample(Profile& p, const char* metric, TimeNs start, TimeNs end, double v, int device = 0) {
  CounterSample c;
  c.metric = p.strings.intern(metric);
  c.start = start;
  c.end = end;
  c.value = v;
  c.device = device;
  p.counters.push_back(c);
}

const CounterAttributionRow* find(const std::vector<CounterAttributionRow>& rows, const std::string& key) {
  for (const auto& r : rows) {
    if (r.key == key) return &r;
  }
  return nullptr;
}

TEST(CounterAttribution, TimeWeightedMeanOverOverlappingSamples) {
  Profile p;
  // Samples of 10 ns: tensor 90 then 30. The kernel covers 5 ns of the first and 10 of the second.
  add_sample(p, "tensor_active_pct", 0, 10, 90.0);
  add_sample(p, "tensor_active_pct", 10, 20, 30.0);
  add_sample(p, "tensor_active_pct", 20, 30, 0.0);
  add_kernel(p, "sm90_xmma_gemm_bf16bf16_bf16f32", 5, 20);
  auto a = attribute_counters(p);
  ASSERT_EQ(a.metrics.size(), 1u);
  ASSERT_EQ(a.by_kernel.size(), 1u);
  EXPECT_NEAR(a.by_kernel[0].means[0], (90.0 * 5 + 30.0 * 10) / 15, 1e-9);
  EXPECT_EQ(a.by_kernel[0].covered_ns, 15);
  EXPECT_EQ(a.by_kernel[0].busy_ns, 15);
}

TEST(CounterAttribution, SamplesOfOtherDevicesDoNotCount) {
  Profile p;
  add_sample(p, "dram_pct", 0, 100, 80.0, /*device=*/1);
  add_kernel(p, "copy_kernel", 10, 20, /*device=*/0);
  auto a = attribute_counters(p);
  ASSERT_EQ(a.by_kernel.size(), 1u);
  EXPECT_TRUE(std::isnan(a.by_kernel[0].means[0]));
  EXPECT_EQ(a.by_kernel[0].covered_ns, 0);
}

TEST(CounterAttribution, GroupsByCategoryAndRanksKernelsByTime) {
  Profile p;
  add_sample(p, "m", 0, 1000, 50.0);
  add_kernel(p, "a", 0, 100);
  add_kernel(p, "b", 100, 400);
  add_kernel(p, "a", 400, 500);
  GpuActivity copy;
  copy.kind = GpuActivityKind::kMemcpy;
  copy.name = p.strings.intern("Memcpy HtoD");
  copy.start = 600;
  copy.end = 700;
  copy.device = 0;
  p.gpu.push_back(copy);
  auto a = attribute_counters(p, 1);
  ASSERT_EQ(a.by_kernel.size(), 1u);
  EXPECT_EQ(a.by_kernel[0].key, "b");
  const auto* memcpy_row = find(a.by_category, "memcpy");
  ASSERT_NE(memcpy_row, nullptr);
  EXPECT_EQ(memcpy_row->kernels, 1);
  EXPECT_DOUBLE_EQ(memcpy_row->means[0], 50.0);
}

TEST(CounterAttribution, NoCountersGivesNoMetrics) {
  Profile p;
  add_kernel(p, "a", 0, 10);
  auto a = attribute_counters(p);
  EXPECT_TRUE(a.metrics.empty());
  EXPECT_TRUE(a.by_kernel.empty());
}

TEST(CounterAttribution, RanShareIsOwnTimeOverTheSampledTimeItOverlaps) {
  Profile p;
  // Two 1000 ns samples; "short" runs 30 ns in each, "long" fills 900 ns of the second.
  add_sample(p, "tensor_active_pct", 0, 1000, 2.0);
  add_sample(p, "tensor_active_pct", 1000, 2000, 80.0);
  add_sample(p, "dram_pct", 0, 1000, 10.0);
  add_sample(p, "dram_pct", 1000, 2000, 30.0);
  add_kernel(p, "short", 100, 130);
  add_kernel(p, "short", 1050, 1080);
  add_kernel(p, "long", 1090, 1990);
  auto a = attribute_counters(p);
  const auto* s = find(a.by_kernel, "short");
  const auto* l = find(a.by_kernel, "long");
  ASSERT_NE(s, nullptr);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(s->sampled_ns, 2000);  // each sample counted once, though two metrics overlap it
  EXPECT_NEAR(s->ran_share(), 60.0 / 2000, 1e-12);
  EXPECT_EQ(l->sampled_ns, 1000);
  EXPECT_NEAR(l->ran_share(), 0.9, 1e-12);
  // The coverage rule: readings are a row's own where it ran at least half of its sampled time.
  EXPECT_FALSE(s->readings_are_own());
  EXPECT_TRUE(l->readings_are_own());
  ASSERT_EQ(a.metrics, (std::vector<std::string>{"dram_pct", "tensor_active_pct"}));
  // Overall means weigh each sample by its part between the first kernel (100) and the last (1990).
  EXPECT_NEAR(a.overall[0], (10.0 * 900 + 30.0 * 990) / 1890, 1e-12);
  EXPECT_NEAR(a.overall[1], (2.0 * 900 + 80.0 * 990) / 1890, 1e-12);
  EXPECT_EQ(a.median_sample_ns, 1000);
}

TEST(CounterAttribution, OverallMeansLeaveOutSamplesBeforeTheFirstKernel) {
  Profile p;
  for (TimeNs t = 0; t < 9000; t += 1000) add_sample(p, "tensor_active_pct", t, t + 1000, 0.0);  // start-up, idle
  add_sample(p, "tensor_active_pct", 9000, 10000, 90.0);
  add_kernel(p, "gemm", 9000, 10000);
  auto a = attribute_counters(p);
  EXPECT_DOUBLE_EQ(a.overall[0], 90.0);
}

TEST(CounterAttribution, CountsTheCallsThatSamplesCover) {
  Profile p;
  add_sample(p, "dram_pct", 0, 1000, 10.0);
  add_kernel(p, "k", 100, 900);
  add_kernel(p, "k", 1100, 1200);  // after the last sample
  auto a = attribute_counters(p);
  ASSERT_EQ(a.by_kernel.size(), 1u);
  EXPECT_EQ(a.by_kernel[0].kernels, 2);
  EXPECT_EQ(a.by_kernel[0].covered_kernels, 1);
  EXPECT_EQ(a.by_kernel[0].covered_ns, 800);
}

TEST(CounterAttribution, RanShareIsZeroWithoutSamples) {
  CounterAttributionRow r;
  r.covered_ns = 10;
  EXPECT_EQ(r.ran_share(), 0.0);
}

}  // namespace
}  // namespace cuprobe
