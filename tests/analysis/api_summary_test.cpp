// Runtime calls by name (nsys cuda_api_sum).
#include "analysis/api_summary.h"

#include <gtest/gtest.h>

#include "launched_profile.h"

namespace cuprobe {
namespace {

TEST(ApiSummary, CallsTotalMedianMaxByName) {
  test::LaunchedProfile t;
  t.launch("k", 0, 1'000, 2'000, 3'000);
  t.launch("k", 10'000, 13'000, 14'000, 15'000);
  t.launch("k", 20'000, 22'000, 24'000, 25'000);
  t.p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kRuntime,
                             .name = t.p.strings.intern("cudaStreamSynchronize"),
                             .start = 30'000,
                             .end = 130'000});
  t.annotation("not a call", 0, 200'000);
  Profile& p = t.sorted();
  auto rows = api_summary(p);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "cudaStreamSynchronize");
  EXPECT_EQ(rows[0].calls, 1);
  EXPECT_DOUBLE_EQ(rows[0].total_ms, 0.1);
  EXPECT_EQ(rows[1].name, "cudaLaunchKernel");
  EXPECT_EQ(rows[1].calls, 3);
  EXPECT_DOUBLE_EQ(rows[1].total_ms, 6e-3);
  EXPECT_DOUBLE_EQ(rows[1].mean_us, 2);
  EXPECT_DOUBLE_EQ(rows[1].median_us, 2);
  EXPECT_DOUBLE_EQ(rows[1].max_us, 3);
}

}  // namespace
}  // namespace cuprobe
