// Outstanding launches per stream (HTA's queue length).
#include "analysis/queue_length.h"

#include <gtest/gtest.h>

#include "launched_profile.h"

namespace cuprobe {
namespace {

TEST(QueueLength, PerEventAndTimeWeightedMeansAndMax) {
  test::LaunchedProfile t;
  t.launch("a", 0, 5, 100, 150);
  t.launch("b", 10, 15, 200, 250);
  t.launch("c", 20, 25, 300, 350);
  t.launch("d", 400, 405, 400, 450);  // started the moment it was launched: never queued
  t.activity("unlaunched", 500, 600);
  Profile& p = t.sorted();
  auto rows = queue_length(p, link_launches(p));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].launches, 4);
  EXPECT_EQ(rows[0].max, 3);
  // 1 for 10 ns, 2 for 10, 3 for 80, 2 for 100, 1 for 100, then 0 until 400.
  EXPECT_DOUBLE_EQ(rows[0].mean_time_weighted, (10 + 20 + 240 + 200 + 100) / 400.0);
  // HTA (hta/analyzers/trace_counters.py): +1 per launch, -1 per start, cumsum, describe()'s mean over the rows:
  // 1 2 3 2 1 0, then at 400 the start before the launch: -1 0. Summed 8 over 8 rows.
  EXPECT_DOUBLE_EQ(rows[0].mean_per_event, 8.0 / 8.0);
}

TEST(QueueLength, PerStreamAndNoneWithoutLaunches) {
  test::LaunchedProfile t;
  t.launch("a", 0, 5, 100, 150, 7);
  t.launch("b", 0, 5, 100, 150, 9);
  Profile& p = t.sorted();
  auto rows = queue_length(p, link_launches(p));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].stream, 7);
  EXPECT_EQ(rows[1].stream, 9);
  test::LaunchedProfile none;
  none.activity("x", 0, 10);
  Profile& q = none.sorted();
  EXPECT_TRUE(queue_length(q, link_launches(q)).empty());
}

}  // namespace
}  // namespace cuprobe
