// issue 25: savings that add up. Each microsecond of the step has one owner; a specific finding claims before a
// generic one; gains never sum past the step; severity follows the gain.
#include "analysis/finding_gains.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

Profile two_kernels() {
  Profile p;
  for (int i = 0; i < 2; ++i) {
    GpuActivity a;
    a.name = p.strings.intern(i == 0 ? "cast" : "add");
    a.start = i * 1'000'000;
    a.end = a.start + (i == 0 ? 1'000'000 : 500'000);  // 1 ms and 0.5 ms
    p.gpu.push_back(a);
  }
  return p;
}

Finding finding(const std::string& id, double alone_after, bool generic) {
  Finding f;
  f.id = id;
  f.what_if = {"", 2.0, std::nullopt, alone_after};
  f.claim.generic = generic;
  return f;
}

const Finding& get(const RankAnalysis& a, const std::string& id) {
  for (const auto& f : a.findings) {
    if (f.id == id) return f;
  }
  throw std::runtime_error("no finding " + id);
}

TEST(FindingGains, TheSpecificFindingOwnsTheTimeBothClaim) {
  Profile p = two_kernels();
  RankAnalysis a;
  a.window_ms = 2.0;  // no steps: the window is the step
  a.gpu_busy_ms = 1.5;
  Finding cast = finding("copy_cast_dominant", 1.2, false);
  cast.claim.activity_ms = {{0, 0.8}};
  Finding roof = finding("low_tensor_core_share", 0.6, true);  // the cast at its roofline, and the add
  roof.claim.activity_ms = {{0, 0.9}, {1, 0.5}};
  a.findings = {roof, cast};
  apportion_gains(p, a);
  ASSERT_EQ(a.findings.size(), 2u);
  EXPECT_EQ(a.findings[0].id, "copy_cast_dominant");
  EXPECT_NEAR(a.findings[0].gain_ms(), 0.8, 1e-12);
  EXPECT_NEAR(*a.findings[0].what_if.step_ms_after, 1.2, 1e-12);
  const Finding& generic = get(a, "low_tensor_core_share");
  EXPECT_NEAR(generic.gain_ms(), 0.2 + 0.5, 1e-12);  // what the cast left of its kernel, and the add
  EXPECT_NEAR(generic.alone_gain_ms(), 1.4, 1e-12);
  EXPECT_NEAR(*generic.what_if.step_ms_after, 2.0 - 0.7, 1e-12);
  EXPECT_EQ(a.findings[0].severity, "high");  // 40% of the step
  EXPECT_EQ(generic.severity, "high");        // 35%
}

TEST(FindingGains, GainsNeverSumPastTheStepAndSeverityFollowsTheGain) {
  Profile p = two_kernels();
  RankAnalysis a;
  a.window_ms = 2.0;
  a.gpu_busy_ms = 1.5;
  Finding idle = finding("gpu_idle", 1.5, true);
  idle.claim.idle_ms = 0.5;
  Finding launches = finding("launch_bound", 1.7, false);
  launches.claim.idle_ms = 0.3;
  Finding bubble = finding("pipeline_bubble", 0.0, false);
  bubble.claim.own_ms = 5.0;  // more than the step
  Finding tiny = finding("host_memcpy_in_step", 1.99, false);
  tiny.claim.activity_ms = {{1, 0.01}};
  a.findings = {idle, launches, tiny, bubble};
  apportion_gains(p, a);
  double sum = 0;
  for (const auto& f : a.findings) sum += f.gain_ms();
  EXPECT_NEAR(sum, 2.0, 1e-12);
  EXPECT_EQ(a.findings[0].id, "pipeline_bubble");
  EXPECT_NEAR(a.findings[0].gain_ms(), 2.0, 1e-12);
  // Nothing is left for the others: each is low, ranked by its (zero) gain, specific ones first.
  for (std::size_t i = 1; i < a.findings.size(); ++i) {
    EXPECT_EQ(a.findings[i].gain_ms(), 0) << a.findings[i].id;
    EXPECT_EQ(a.findings[i].severity, "low") << a.findings[i].id;
  }
  EXPECT_EQ(a.findings.back().id, "gpu_idle");
}

TEST(FindingGains, LaunchGapsGoToLaunchBoundAndTheRestOfTheIdleToGpuIdle) {
  Profile p = two_kernels();
  RankAnalysis a;
  a.window_ms = 2.0;
  a.gpu_busy_ms = 1.5;
  Finding idle = finding("gpu_idle", 1.5, true);
  idle.claim.idle_ms = 0.5;
  Finding launches = finding("launch_bound", 1.7, false);
  launches.claim.idle_ms = 0.3;
  Finding tiny = finding("host_memcpy_in_step", 1.99, false);
  tiny.claim.activity_ms = {{1, 0.01}};
  a.findings = {idle, launches, tiny};
  apportion_gains(p, a);
  EXPECT_NEAR(get(a, "launch_bound").gain_ms(), 0.3, 1e-12);
  EXPECT_NEAR(get(a, "gpu_idle").gain_ms(), 0.2, 1e-12);
  EXPECT_EQ(get(a, "gpu_idle").severity, "medium");  // 10%
  // A what-if under 1% of the step is low and ranked below every finding that explains more.
  EXPECT_EQ(a.findings.back().id, "host_memcpy_in_step");
  EXPECT_EQ(a.findings.back().severity, "low");
}

TEST(FindingGains, SeverityBands) {
  EXPECT_EQ(severity_for_gain(0.25, 1.0), "high");
  EXPECT_EQ(severity_for_gain(0.2499, 1.0), "medium");
  EXPECT_EQ(severity_for_gain(0.05, 1.0), "medium");
  EXPECT_EQ(severity_for_gain(0.009, 1.0), "low");
  EXPECT_EQ(severity_for_gain(1.0, 0.0), "low");
}

}  // namespace
}  // namespace cuprobe
