#include "collect/counters/pm_sampling_plan.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

using std::chrono::milliseconds;

TEST(PmSamplingPlan, DecodesEvery50To100MsIntoAtLeast64MiB) {
  PmSamplingPlan p = plan_pm_sampling(milliseconds(1));
  EXPECT_EQ(p.decode_period, milliseconds(50));
  EXPECT_EQ(p.max_samples, 2u * 50 + 16);
  EXPECT_EQ(p.hardware_buffer_bytes, kPmMinHardwareBufferBytes);
  EXPECT_EQ(plan_pm_sampling(milliseconds(10)).decode_period, milliseconds(50));
  EXPECT_EQ(plan_pm_sampling(milliseconds(10)).max_samples, 32u);
  EXPECT_EQ(plan_pm_sampling(milliseconds(70)).decode_period, milliseconds(70));
  EXPECT_EQ(plan_pm_sampling(std::chrono::seconds(10)).decode_period, milliseconds(100));
}

TEST(PmSamplingPlan, TheBufferGrowsWithAGivenLongPeriod) {
  PmSamplingPlan p = plan_pm_sampling(milliseconds(1), milliseconds(500));
  EXPECT_GE(p.hardware_buffer_bytes, 2u * 500 * kPmBytesPerSampleEstimate);
  EXPECT_EQ(p.hardware_buffer_bytes % (1u << 20), 0u);
  EXPECT_EQ(p.max_samples, 1016u);
}

TEST(PmSamplingPlan, GivenValuesAreKept) {
  PmSamplingPlan p = plan_pm_sampling(milliseconds(1), milliseconds(20), 16u << 20);
  EXPECT_EQ(p.decode_period, milliseconds(20));
  EXPECT_EQ(p.max_samples, 56u);
  EXPECT_EQ(p.hardware_buffer_bytes, 16u << 20);
}

}  // namespace
}  // namespace cuprobe
