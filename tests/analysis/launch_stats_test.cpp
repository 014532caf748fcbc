// Launch call durations and launch delays per kernel (HTA get_cuda_kernel_launch_stats).
#include "analysis/launch_stats.h"

#include <gtest/gtest.h>

#include "launched_profile.h"

namespace cuprobe {
namespace {

TEST(LaunchStats, DelayIsGpuStartMinusTheEndOfTheCall) {
  test::LaunchedProfile t;
  t.launch("gemm", 0, 5'000, 7'000, 8'000);             // call 5 us, delay 2 us
  t.launch("gemm", 10'000, 13'000, 17'000, 30'000);     // call 3 us, delay 4 us
  t.launch("gemm", 40'000, 100'000, 300'000, 301'000);  // call 60 us (outlier), delay 200 us (outlier)
  t.launch("add", 400'000, 404'000, 404'500, 405'000);  // delay 0.5 us, shorter than its call
  Profile& p = t.sorted();
  LaunchStats s = launch_stats(p, link_launches(p));
  EXPECT_EQ(s.cpu_cutoff_us, 50);
  EXPECT_EQ(s.delay_cutoff_us, 100);
  ASSERT_EQ(s.kernels.size(), 2u);
  const LaunchRow& gemm = s.kernels[0];  // the larger total delay first
  EXPECT_EQ(gemm.name, "gemm");
  EXPECT_EQ(gemm.launches, 3);
  EXPECT_DOUBLE_EQ(gemm.cpu_median_us, 5);
  EXPECT_DOUBLE_EQ(gemm.cpu_max_us, 60);
  EXPECT_DOUBLE_EQ(gemm.delay_median_us, 4);
  EXPECT_DOUBLE_EQ(gemm.delay_p90_us, 4 + 0.8 * 196);  // numpy's linear interpolation
  EXPECT_DOUBLE_EQ(gemm.delay_max_us, 200);
  EXPECT_DOUBLE_EQ(gemm.delay_total_ms, 0.206);
  EXPECT_EQ(gemm.cpu_outliers, 1);
  EXPECT_EQ(gemm.delay_outliers, 1);
  EXPECT_EQ(gemm.short_kernels, 2);  // 1 us on the GPU after a 5 us and a 60 us call
  EXPECT_EQ(s.kernels[1].short_kernels, 1);
  EXPECT_EQ(s.all.launches, 4);
  EXPECT_EQ(s.all.cpu_outliers, 1);
}

TEST(LaunchStats, GraphLaunchesAndUnlaunchedActivitiesLeftOut) {
  test::LaunchedProfile t;
  t.launch("node", 0, 10, 100, 200, 7, "cudaGraphLaunch");
  t.activity("node", 200, 300, 7, 1);  // the same graph launch's second node
  t.activity("orphan", 400, 500);
  Profile& p = t.sorted();
  LaunchStats s = launch_stats(p, link_launches(p));
  EXPECT_TRUE(s.kernels.empty());
  EXPECT_EQ(s.all.launches, 0);
}

}  // namespace
}  // namespace cuprobe
