// Typical, slowest and outlier steps: decided once, on the step time (GPU clock).
#include "analysis/step_outliers.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

Step step(const char* kind, TimeNs time_us) {
  Step s;
  s.kind = kind;
  s.time = time_us * 1000;
  s.activities = 1;
  return s;
}

TEST(StepOutliers, TypicalSlowestAndOutliersPerKind) {
  StepSummary summary;
  for (TimeNs t : {100, 102, 98, 101, 500}) summary.steps.push_back(step("decode", t));
  summary.steps.push_back(step("prefill", 1000));
  summary.steps.push_back(step("prefill", 1100));
  Step empty = step("decode", 0);
  empty.activities = 0;
  summary.steps.push_back(empty);
  summary.median_ms = 0.101;
  mark_typical_and_outliers(summary);
  ASSERT_TRUE(summary.typical_step && summary.slowest_step);
  EXPECT_EQ(*summary.typical_step, 3u);  // 101 us: the median itself
  EXPECT_EQ(*summary.slowest_step, 6u);  // 1100 us
  ASSERT_EQ(summary.kinds.size(), 2u);
  EXPECT_EQ(summary.kinds[0].kind, "decode");
  EXPECT_EQ(summary.kinds[0].steps, 5);
  EXPECT_DOUBLE_EQ(summary.kinds[0].median_ms, 0.101);
  EXPECT_EQ(summary.kinds[0].outliers, 1);
  EXPECT_TRUE(summary.steps[4].outlier);   // 500 us among ~100 us decode steps
  EXPECT_FALSE(summary.steps[5].outlier);  // a prefill is judged among prefills
  EXPECT_FALSE(summary.steps[7].outlier);  // no GPU work: not judged
  EXPECT_EQ(summary.kinds[1].outliers, 0);
}

TEST(StepOutliers, NoStepsWithGpuWorkHaveNoTypicalStep) {
  StepSummary summary;
  Step s;
  summary.steps.push_back(s);
  mark_typical_and_outliers(summary);
  EXPECT_FALSE(summary.typical_step);
  EXPECT_TRUE(summary.kinds.empty());
}

}  // namespace
}  // namespace cuprobe
