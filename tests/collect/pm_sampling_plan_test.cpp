#include "collect/pm_sampling_plan.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(PmSamplingPlan, ShortIntervalsDecodeFourTimesASecondIntoABufferForTwoPeriods) {
  PmSamplingPlan p = plan_pm_sampling(milliseconds(1));
  EXPECT_EQ(p.decode_period, milliseconds(250));
  EXPECT_EQ(p.max_samples, 2u * 250 + 16);
  EXPECT_GE(p.hardware_buffer_bytes, 2u * 250 * kPmBytesPerSampleEstimate);
  EXPECT_EQ(p.hardware_buffer_bytes % (1u << 20), 0u);
}

TEST(PmSamplingPlan, LongerIntervalsDecodeOnceASecondOrOncePerSample) {
  EXPECT_EQ(plan_pm_sampling(milliseconds(10)).decode_period, seconds(1));
  EXPECT_EQ(plan_pm_sampling(milliseconds(10)).max_samples, 216u);
  EXPECT_EQ(plan_pm_sampling(milliseconds(100)).decode_period, seconds(1));
  EXPECT_EQ(plan_pm_sampling(milliseconds(100)).max_samples, 36u);
  EXPECT_EQ(plan_pm_sampling(seconds(10)).decode_period, seconds(10));
  EXPECT_EQ(plan_pm_sampling(seconds(10)).max_samples, 32u);
  EXPECT_EQ(plan_pm_sampling(milliseconds(100)).hardware_buffer_bytes, kPmMinHardwareBufferBytes);
}

TEST(PmSamplingPlan, GivenValuesAreKept) {
  PmSamplingPlan p = plan_pm_sampling(milliseconds(1), milliseconds(20), 16u << 20);
  EXPECT_EQ(p.decode_period, milliseconds(20));
  EXPECT_EQ(p.max_samples, 56u);
  EXPECT_EQ(p.hardware_buffer_bytes, 16u << 20);
}

}  // namespace
}  // namespace cuprobe
