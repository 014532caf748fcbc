// HTA's default window: the last ProfilerStep left out (hta/common/trace.py, _filter_irrelevant_gpu_kernels).
#include "analysis/hta_window.h"

#include <gtest/gtest.h>

#include "launched_profile.h"

namespace cuprobe {
namespace {

StepAssignment steps_of(const Profile& p) {
  StepAssignment s;
  for (std::size_t i = 0; i < p.gpu.size(); ++i) s.activity_step.push_back(static_cast<int>(i));
  return s;
}

// Two steps; k3 is launched inside the last one, k4 has no launch call.
test::LaunchedProfile two_steps() {
  test::LaunchedProfile t;
  t.annotation("ProfilerStep#1", 0, 1'000);
  t.annotation("ProfilerStep#2", 1'000, 2'000);
  t.launch("k1", 10, 20, 100, 200);
  t.launch("k2", 990, 995, 1'100, 1'300);  // launched before the last step, ran inside it: kept (HTA: by launch)
  t.launch("k3", 1'000, 1'010, 1'400, 1'700);
  t.activity("k4", 1'800, 1'900);
  return t;
}

TEST(HtaWindow, DefaultLeavesOutWhatTheLastStepLaunched) {
  test::LaunchedProfile t = two_steps();
  Profile& p = t.sorted();
  HtaWindowInfo info;
  auto w = hta_window(p, link_launches(p), steps_of(p), HtaWindow::kDefault, info);
  ASSERT_TRUE(w.has_value());
  EXPECT_TRUE(info.cut);
  EXPECT_FALSE(info.keep_all);
  EXPECT_EQ(info.last_step, "ProfilerStep#2");
  EXPECT_DOUBLE_EQ(info.cut_at_ms, 1'000e-6);
  EXPECT_EQ(info.activities_left_out, 2);  // k3 and the unlaunched k4 (HTA keeps only correlated activities)
  EXPECT_DOUBLE_EQ(info.gpu_ms_left_out, 400e-6);
  ASSERT_EQ(w->profile.gpu.size(), 2u);
  EXPECT_EQ(w->profile.name_of(w->profile.gpu[1].name), "k2");
  EXPECT_EQ(w->steps.activity_step, (std::vector<int>{0, 1}));
  for (const CpuRange& r : w->profile.cpu) EXPECT_LT(r.start, 1'000);
  // The launch links of the cut profile still find every kept activity's call.
  EXPECT_EQ(link_launches(w->profile).linked, 2);
}

TEST(HtaWindow, AllOrUnderTwoStepsKeepsEverything) {
  test::LaunchedProfile t = two_steps();
  Profile& p = t.sorted();
  HtaWindowInfo info;
  EXPECT_FALSE(hta_window(p, link_launches(p), steps_of(p), HtaWindow::kAll, info).has_value());
  EXPECT_TRUE(info.keep_all);
  EXPECT_FALSE(info.cut);
  test::LaunchedProfile one;  // HTA: "only one iteration in the trace", include_last_profiler_step = True
  one.annotation("ProfilerStep#7", 0, 1'000);
  one.annotation("ProfilerStep#7", 1'000, 2'000);  // the same name twice is one symbol id
  one.launch("k", 1'500, 1'510, 1'600, 1'700);
  Profile& q = one.sorted();
  EXPECT_FALSE(hta_window(q, link_launches(q), steps_of(q), HtaWindow::kDefault, info).has_value());
  EXPECT_FALSE(info.cut);
  EXPECT_EQ(info.activities_left_out, 0);
}

}  // namespace
}  // namespace cuprobe
