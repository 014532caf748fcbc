// issue 34: a what-if never projects a step below what the host needs to launch it.
#include "analysis/findings_what_if.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

// Four steps of `kernels` kernels: the host launches one every `launch_every` ns (each call 5 us), the GPU runs
// each for `kernel_ns`, the first kernel of a step the long one (`first_ns`). Each launch carries a correlation.
struct Program {
  Profile profile;
  StepAssignment steps;
  std::vector<KernelClass> classes;
  WorkAttribution work;
  RankAnalysis analysis;
  WhatIfInputs inputs() const { return {profile, classes, steps, work, analysis}; }
};

void build(Program& p, int kernels, TimeNs launch_every, TimeNs first_ns, TimeNs kernel_ns,
           const char* source = "cuprobe-run") {
  constexpr int kSteps = 4;
  p.profile.source = source;
  StringId launch = p.profile.strings.intern("cudaLaunchKernel");
  StringId name = p.profile.strings.intern("kernel");
  std::int64_t correlation = 1;
  TimeNs host = 0, gpu = 0;
  for (int s = 0; s < kSteps; ++s) {
    Step step;
    step.kind = "step";
    step.gpu_start = gpu;
    for (int k = 0; k < kernels; ++k) {
      CpuRange call;
      call.kind = CpuRangeKind::kRuntime;
      call.name = launch;
      call.start = host;
      call.end = host + 5'000;
      call.correlation = correlation;
      p.profile.cpu.push_back(call);
      GpuActivity a;
      a.name = name;
      a.start = std::max(gpu, host + 5'000);
      a.end = a.start + (k == 0 ? first_ns : kernel_ns);
      a.correlation = correlation++;
      gpu = a.end;
      p.profile.gpu.push_back(a);
      p.steps.activity_step.push_back(s);
      host += launch_every;
    }
    step.gpu_end = gpu;
    p.steps.summary.steps.push_back(step);
  }
  p.steps.summary.median_ms = static_cast<double>(gpu) / kSteps / 1e6;
  p.classes.assign(p.profile.gpu.size(), KernelClass{});
  p.work.activity.assign(p.profile.gpu.size(), ActivityWork{});
}

Finding projected(double now, double after, bool changes_launches = false) {
  Finding f;
  f.id = "a_finding";
  f.what_if = {"the cast gone: step " + std::to_string(after), now, std::nullopt, after};
  f.claim.changes_launches = changes_launches;
  return f;
}

TEST(HostFloor, AFixThatLeavesTheHostLaunchingIsProjectedAtTheHostsFloor) {
  // A run file recorded with --api. GPU-bound now: a 2 ms kernel then 19 of 20 us; the host launches one every 30 us
  // (0.57 ms from the first launch to the end of the last). Removing the 2 ms kernel leaves 0.38 ms of GPU work: below
  // the host's floor.
  Program p;
  build(p, 20, 30'000, 2'000'000, 20'000);
  std::optional<HostFloor> floor = host_launch_floor(p.inputs());
  ASSERT_TRUE(floor);
  EXPECT_NEAR(floor->ms, 0.575, 1e-9);
  EXPECT_EQ(floor->launches_per_step, 20);
  EXPECT_NEAR(floor->launch_us, 5.0, 1e-9);
  double now = p.inputs().step_ms_now();
  std::vector<Finding> findings{projected(now, now - 2.0), projected(now, now - 2.0, true), projected(now, now - 0.1)};
  apply_host_floor(p.inputs(), findings);
  ASSERT_TRUE(findings[0].what_if.step_ms_after_alone);
  EXPECT_NEAR(*findings[0].what_if.step_ms_after_alone, 0.575, 1e-9);
  ASSERT_TRUE(findings[0].claim.max_gain_ms);
  EXPECT_NEAR(*findings[0].claim.max_gain_ms, now - 0.575, 1e-9);
  EXPECT_NE(findings[0].what_if.description.find("host-bound: step 0.57 ms"), std::string::npos)
      << findings[0].what_if.description;
  EXPECT_NE(findings[0].what_if.description.find("20 launch calls of 5.0 us"), std::string::npos);
  // A fix that changes the host's launches (CUDA graphs) is not held to them; one above the floor is left alone.
  EXPECT_NEAR(*findings[1].what_if.step_ms_after_alone, now - 2.0, 1e-9);
  EXPECT_FALSE(findings[1].claim.max_gain_ms);
  EXPECT_NEAR(*findings[2].what_if.step_ms_after_alone, now - 0.1, 1e-9);
  EXPECT_EQ(findings[2].what_if.description.find("host"), std::string::npos);
}

TEST(HostFloor, TimeTheHostSpendsWaitingForTheGpuIsNoPartOfTheFloor) {
  // A launch queue full now and then: every other launch waits 195 us for the GPU; and a synchronize of 150 us
  // in the first step. Each call counts for a typical launch (5 us, the 10th percentile of the launches) only.
  Program p;
  build(p, 10, 10'000, 100'000, 100'000);
  for (std::size_t i = 0; i < p.profile.cpu.size(); ++i) {
    CpuRange& call = p.profile.cpu[i];
    call.start = static_cast<TimeNs>(i) * 210'000;
    call.end = call.start + (i % 2 == 1 ? 200'000 : 5'000);
  }
  CpuRange sync;
  sync.kind = CpuRangeKind::kRuntime;
  sync.name = p.profile.strings.intern("cudaStreamSynchronize");
  sync.start = p.profile.cpu[4].start + 10'000;
  sync.end = sync.start + 150'000;
  p.profile.cpu.insert(p.profile.cpu.begin() + 5, sync);
  std::optional<HostFloor> floor = host_launch_floor(p.inputs());
  ASSERT_TRUE(floor);
  // A step's launches span 9 * 210 + 200 us, of which 5 * 195 us waiting: 1115 us (the first step 145 us less).
  EXPECT_NEAR(floor->ms, 1.115, 1e-9);
  EXPECT_NEAR(floor->launch_us, 5.0, 1e-9);
}

// torch.profiler stretches the host's time between launches: there the floor is the launches at the fastest call.
TEST(HostFloor, UnderTorchProfilerTheFloorIsTheLaunchesAtTheFastestCall) {
  // 200 launches 6 us apart (each call 5 us, one 4 us), a 2 ms kernel then 199 of 1 us: the GPU's step is 2.2 ms;
  // without the long kernel the GPU would need 0.2 ms, the host at least 200 x 4 us.
  Program p;
  build(p, 200, 6'000, 2'000'000, 1'000, "kineto");
  p.profile.cpu[7].end = p.profile.cpu[7].start + 4'000;
  std::optional<HostFloor> floor = host_launch_floor(p.inputs());
  ASSERT_TRUE(floor);
  EXPECT_FALSE(floor->from_span);
  EXPECT_NEAR(floor->ms, 0.8, 1e-9);
  double now = p.inputs().step_ms_now();
  std::vector<Finding> findings{projected(now, now - 2.0)};
  apply_host_floor(p.inputs(), findings);
  EXPECT_NEAR(*findings[0].what_if.step_ms_after_alone, 0.8, 1e-9);
  EXPECT_NE(findings[0].what_if.description.find("200 launch calls, each at least 4.0 us"), std::string::npos)
      << findings[0].what_if.description;
}

// Above the launches alone but below the host's span under the profiler (an upper bound): the number stays, and
// the what-if says the fixed step may stop at the host.
TEST(HostFloor, UnderTorchProfilerAProjectionBelowTheProfiledSpanSaysSo) {
  Program p;
  build(p, 20, 30'000, 2'000'000, 20'000, "kineto");
  std::optional<HostFloor> floor = host_launch_floor(p.inputs());
  ASSERT_TRUE(floor);
  EXPECT_NEAR(floor->ms, 0.1, 1e-9);
  EXPECT_NEAR(floor->profiled_span_ms, 0.575, 1e-9);
  double now = p.inputs().step_ms_now();
  std::vector<Finding> findings{projected(now, now - 2.0)};
  apply_host_floor(p.inputs(), findings);
  EXPECT_NEAR(*findings[0].what_if.step_ms_after_alone, now - 2.0, 1e-9);
  EXPECT_FALSE(findings[0].claim.max_gain_ms);
  EXPECT_NE(findings[0].what_if.description.find("under the profiler the host took 0.57 ms"), std::string::npos)
      << findings[0].what_if.description;
}

TEST(HostFloor, NoLaunchCallsNoFloor) {
  Program p;
  build(p, 10, 10'000, 100'000, 100'000);
  p.profile.cpu.clear();  // a run file recorded without --api
  EXPECT_FALSE(host_launch_floor(p.inputs()));
  double now = p.inputs().step_ms_now();
  std::vector<Finding> findings{projected(now, 0.01)};
  apply_host_floor(p.inputs(), findings);
  EXPECT_NEAR(*findings[0].what_if.step_ms_after_alone, 0.01, 1e-12);
}

}  // namespace
}  // namespace cuprobe
