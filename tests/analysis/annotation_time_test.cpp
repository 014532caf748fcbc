// GPU time per annotation: the activities launched inside each range.
#include "analysis/annotation_time.h"

#include <gtest/gtest.h>

#include "launched_profile.h"

namespace cuprobe {
namespace {

StepAssignment steps_of(const Profile& p, std::vector<int> per_activity, std::size_t steps) {
  StepAssignment s;
  s.summary.steps.resize(steps);
  s.activity_step = std::move(per_activity);
  s.activity_step.resize(p.gpu.size(), -1);
  return s;
}

TEST(AnnotationTime, NestedRangesEachCountTheirLaunches) {
  test::LaunchedProfile t;
  t.annotation("ProfilerStep#3", 0, 1'000);
  t.annotation("attention", 100, 400);
  t.launch("qk", 150, 160, 1'000, 1'100);
  t.launch("pv", 300, 310, 1'200, 1'250);
  t.launch("mlp", 500, 510, 1'300, 1'500);
  t.annotation("ProfilerStep#4", 2'000, 3'000);
  t.launch("mlp", 2'100, 2'110, 3'000, 3'200);
  t.launch("outside", 4'000, 4'010, 4'100, 4'200);
  t.launch("other thread", 2'200, 2'210, 2'300, 2'400);
  t.p.cpu.back().tid = 2;
  Profile& p = t.sorted();
  auto rows = annotation_time(p, link_launches(p), steps_of(p, {}, 0), 1.0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "ProfilerStep#N");
  EXPECT_EQ(rows[0].ranges, 2);
  EXPECT_EQ(rows[0].ranges_with_gpu, 2);
  EXPECT_EQ(rows[0].activities, 4);
  EXPECT_DOUBLE_EQ(rows[0].gpu_ms, (100 + 50 + 200 + 200) / 1e6);
  EXPECT_DOUBLE_EQ(rows[0].gpu_span_ms, (500 + 200) / 1e6);  // 1000..1500 and 3000..3200
  EXPECT_DOUBLE_EQ(rows[0].share, rows[0].gpu_ms / 1.0);
  EXPECT_EQ(rows[1].name, "attention");
  EXPECT_EQ(rows[1].activities, 2);
  EXPECT_DOUBLE_EQ(rows[1].gpu_ms, 150 / 1e6);
  EXPECT_DOUBLE_EQ(rows[1].gpu_span_ms, 250 / 1e6);
  EXPECT_EQ(rows[1].per_step_ms, 0);
}

TEST(AnnotationTime, RecursiveNameCountsOnceAndPerStepIsInStepTime) {
  test::LaunchedProfile t;
  t.annotation("layer", 0, 1'000);
  t.annotation("layer", 10, 900);
  t.annotation("idle", 950, 990);  // launches nothing
  t.launch("k", 20, 30, 100, 300);
  t.launch("k", 40, 50, 400, 500);
  Profile& p = t.sorted();
  auto rows = annotation_time(p, link_launches(p), steps_of(p, {0, -1}, 2), 0.3e-3);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "layer");
  EXPECT_EQ(rows[0].ranges, 2);
  EXPECT_EQ(rows[0].activities, 2);
  EXPECT_DOUBLE_EQ(rows[0].gpu_ms, 300 / 1e6);
  EXPECT_DOUBLE_EQ(rows[0].per_step_ms, 200 / 1e6 / 2);
  EXPECT_DOUBLE_EQ(rows[0].share, 1.0);
  EXPECT_EQ(rows[1].name, "idle");
  EXPECT_EQ(rows[1].ranges_with_gpu, 0);
  EXPECT_EQ(rows[1].gpu_ms, 0);
}

TEST(AnnotationTime, RowNames) {
  EXPECT_EQ(annotation_row_name("ProfilerStep#12"), "ProfilerStep#N");
  EXPECT_EQ(annotation_row_name("step#"), "step#");
  EXPECT_EQ(annotation_row_name("a#1b"), "a#1b");
  EXPECT_EQ(annotation_row_name("decode_step"), "decode_step");
}

TEST(AnnotationTime, NoAnnotationsNoRows) {
  test::LaunchedProfile t;
  t.launch("k", 0, 10, 20, 30);
  Profile& p = t.sorted();
  EXPECT_TRUE(annotation_time(p, link_launches(p), steps_of(p, {}, 0), 1).empty());
}

}  // namespace
}  // namespace cuprobe
