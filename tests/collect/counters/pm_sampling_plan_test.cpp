#include "collect/counters/pm_sampling_plan.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

using std::chrono::milliseconds;

TEST(PmSamplingPlan, DecodesEvery50To100MsIntoAtLeast64MiB) {
  PmSamplingPlan p = plan_pm_sampling(milliseconds(1));
  EXPECT_EQ(p.decode_period, milliseconds(50));
  EXPECT_EQ(p.hardware_buffer_bytes, kPmMinHardwareBufferBytes);
  EXPECT_EQ(plan_pm_sampling(milliseconds(10)).decode_period, milliseconds(50));
  EXPECT_EQ(plan_pm_sampling(milliseconds(70)).decode_period, milliseconds(70));
  EXPECT_EQ(plan_pm_sampling(std::chrono::seconds(10)).decode_period, milliseconds(100));
}

// The image is kept across decodes and reset only when full, which can cost the sample
// in flight: it holds as many samples as CUPTI allows, whatever the interval.
TEST(PmSamplingPlan, TheImageHoldsAsManySamplesAsCuptiAllows) {
  for (auto interval : {milliseconds(1), milliseconds(10), milliseconds(100), milliseconds(1000)}) {
    EXPECT_EQ(plan_pm_sampling(interval).max_samples, kPmMaxImageSamples) << interval.count();
  }
  EXPECT_EQ(kPmMaxImageSamples, 1024u);
}

TEST(PmSamplingPlan, TheBufferGrowsWithAGivenLongPeriod) {
  PmSamplingPlan p = plan_pm_sampling(milliseconds(1), milliseconds(500));
  EXPECT_GE(p.hardware_buffer_bytes, 2u * 500 * kPmBytesPerSampleEstimate);
  EXPECT_EQ(p.hardware_buffer_bytes % (1u << 20), 0u);
  EXPECT_EQ(p.max_samples, kPmMaxImageSamples);
}

TEST(PmSamplingPlan, GivenValuesAreKept) {
  PmSamplingPlan p = plan_pm_sampling(milliseconds(1), milliseconds(20), 16u << 20);
  EXPECT_EQ(p.decode_period, milliseconds(20));
  EXPECT_EQ(p.hardware_buffer_bytes, 16u << 20);
}

}  // namespace
}  // namespace cuprobe
