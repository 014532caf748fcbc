// Idle time by cause per stream, HTA's definitions (docs/analyze-tables.md).
#include "analysis/idle_time.h"

#include <gtest/gtest.h>

#include "analysis/launch_links.h"
#include "launched_profile.h"

namespace cuprobe {
namespace {

StepAssignment no_steps(const Profile& p) {
  StepAssignment s;
  s.activity_step.assign(p.gpu.size(), -1);
  return s;
}

IdleBreakdown idle_of(const Profile& p) { return idle_by_stream(p, link_launches(p), no_steps(p)); }

TEST(IdleByStream, HostWaitKernelWaitAndOther) {
  test::LaunchedProfile t;
  t.launch("k1", 0, 10, 100, 200);
  t.launch("k2", 300, 310, 400, 500);        // launched after k1 ended: 200 ns host wait
  t.launch("k3", 320, 330, 510, 600);        // queued before k2 ended, 10 ns gap: kernel wait
  t.launch("k4", 340, 350, 50'600, 50'700);  // queued early, 50 us gap: other
  IdleBreakdown idle = idle_of(t.sorted());
  ASSERT_EQ(idle.streams.size(), 1u);
  const StreamIdle& s = idle.streams[0];
  EXPECT_EQ(s.gaps, 3);
  EXPECT_DOUBLE_EQ(s.host_wait_ms, 200e-6);
  EXPECT_DOUBLE_EQ(s.kernel_wait_ms, 10e-6);
  EXPECT_DOUBLE_EQ(s.other_ms, 50'000e-6);
  EXPECT_DOUBLE_EQ(idle.total.idle_ms(), s.idle_ms());
  EXPECT_TRUE(idle.launches_known);
  EXPECT_EQ(idle.kernel_wait_threshold_us, 30);
}

TEST(IdleByStream, WithoutLaunchCallsNoGapIsHostWait) {
  test::LaunchedProfile t;
  t.activity("a", 0, 100);
  t.activity("b", 29'000, 29'100);  // 28.9 us: kernel wait
  t.activity("c", 90'000, 90'100);  // 60.9 us: other
  IdleBreakdown idle = idle_of(t.sorted());
  EXPECT_FALSE(idle.launches_known);
  EXPECT_EQ(idle.total.host_wait_ms, 0);
  EXPECT_DOUBLE_EQ(idle.total.kernel_wait_ms, 28'900e-6);
  EXPECT_DOUBLE_EQ(idle.total.other_ms, 60'900e-6);
}

TEST(IdleByStream, StreamsAndDevicesApartOverlapsNotIdle) {
  test::LaunchedProfile t;
  t.activity("a", 0, 1'000, 7);
  t.activity("b", 500, 600, 7);      // inside a: no gap
  t.activity("c", 1'100, 1'200, 7);  // 100 ns after a's end
  t.activity("d", 0, 10, 9);
  t.activity("e", 20, 30, 9);
  t.p.gpu.back().device = 1;  // same stream number, another GPU: its own stream
  IdleBreakdown idle = idle_of(t.sorted());
  ASSERT_EQ(idle.streams.size(), 3u);
  EXPECT_EQ(idle.streams[0].device, 0);
  EXPECT_EQ(idle.streams[0].stream, 7);
  EXPECT_DOUBLE_EQ(idle.streams[0].idle_ms(), 100e-6);
  EXPECT_EQ(idle.streams[0].gaps, 1);
  EXPECT_EQ(idle.streams[1].stream, 9);
  EXPECT_EQ(idle.streams[1].gaps, 0);
  EXPECT_EQ(idle.streams[2].device, 1);
  EXPECT_EQ(idle.total.gaps, 1);
}

TEST(IdleByStream, StepMediansTakeTheGapsOfTheirActivities) {
  test::LaunchedProfile t;
  t.activity("a", 0, 10);
  t.activity("b", 20, 30);    // step 0: 10 ns kernel wait
  t.activity("c", 50, 60);    // step 1: 20 ns
  t.activity("d", 100, 110);  // step 2: 40 ns
  Profile& p = t.sorted();
  StepAssignment steps;
  steps.summary.steps.resize(3);
  steps.activity_step = {0, 0, 1, 2};
  IdleBreakdown idle = idle_by_stream(p, link_launches(p), steps);
  EXPECT_DOUBLE_EQ(idle.step_kernel_wait_median_ms, 20e-6);
  EXPECT_EQ(idle.step_host_wait_median_ms, 0);
}

}  // namespace
}  // namespace cuprobe
