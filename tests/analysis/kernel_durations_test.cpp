// Each kernel row's spread of call durations.
#include "analysis/kernel_durations.h"

#include <gtest/gtest.h>

#include "launched_profile.h"

namespace cuprobe {
namespace {

TEST(KernelDurations, MinMedianP90MaxStdPerName) {
  test::LaunchedProfile t;
  for (TimeNs d : {1'000, 2'000, 3'000, 10'000}) t.activity("gemm", d * 10, d * 10 + d);
  t.activity("add", 0, 500);
  std::vector<KernelRow> rows(3);
  rows[0].name = "gemm";
  rows[1].name = "add";
  rows[2].name = "not in the trace";
  fill_kernel_durations(t.sorted(), rows);
  EXPECT_DOUBLE_EQ(rows[0].min_us, 1);
  EXPECT_DOUBLE_EQ(rows[0].median_us, 2.5);
  EXPECT_DOUBLE_EQ(rows[0].p90_us, 3 + 0.7 * 7);
  EXPECT_DOUBLE_EQ(rows[0].max_us, 10);
  EXPECT_NEAR(rows[0].std_us, 3.5355339, 1e-6);  // population: sqrt(50 / 4)
  EXPECT_DOUBLE_EQ(rows[1].median_us, 0.5);
  EXPECT_EQ(rows[1].std_us, 0);
  EXPECT_EQ(rows[2].max_us, 0);
}

}  // namespace
}  // namespace cuprobe
