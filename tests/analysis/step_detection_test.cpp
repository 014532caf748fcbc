#include "analysis/step_detection.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

CpuRange range(Profile& p, CpuRangeKind kind, const char* name, TimeNs start, TimeNs end, std::int64_t corr = -1) {
  CpuRange r;
  r.kind = kind;
  r.name = p.strings.intern(name);
  r.start = start;
  r.end = end;
  r.pid = r.tid = 1;
  r.correlation = corr;
  return r;
}

GpuActivity kernel(Profile& p, const char* name, TimeNs start, TimeNs end, std::int64_t corr) {
  GpuActivity a;
  a.name = p.strings.intern(name);
  a.start = start;
  a.end = end;
  a.correlation = corr;
  return a;
}

TEST(StepDetection, AnnotationsAndCorrelationIdsIncludingGraphReplays) {
  Profile p;
  // Two SGLang-style steps; the second launches a CUDA graph whose kernels share one correlation id
  // and run after the annotation ended on the CPU.
  p.cpu.push_back(range(p, CpuRangeKind::kAnnotation, "step[DECODE bs=4]", 0, 1000));
  p.cpu.push_back(range(p, CpuRangeKind::kRuntime, "cudaLaunchKernel", 100, 110, 1));
  p.cpu.push_back(range(p, CpuRangeKind::kAnnotation, "step[EXTEND bs=1]", 2000, 3000));
  p.cpu.push_back(range(p, CpuRangeKind::kRuntime, "cudaGraphLaunch", 2100, 2110, 2));
  p.cpu.push_back(range(p, CpuRangeKind::kAnnotation, "ProfilerStep#1", 0, 5000));  // less specific, ignored
  p.gpu.push_back(kernel(p, "k1", 200, 700, 1));
  p.gpu.push_back(kernel(p, "g1", 3100, 3400, 2));
  p.gpu.push_back(kernel(p, "g2", 3300, 3600, 2));
  p.gpu.push_back(kernel(p, "stray", 4000, 4100, 99));
  p.sort_by_time();
  StepAssignment a = detect_steps(p, {});
  EXPECT_EQ(a.summary.source, "annotation");
  EXPECT_EQ(a.summary.marker, "step[");
  ASSERT_EQ(a.summary.steps.size(), 2u);
  EXPECT_EQ(a.summary.steps[0].kind, "decode");
  EXPECT_EQ(a.summary.steps[1].kind, "prefill");
  EXPECT_EQ(a.summary.steps[1].gpu_busy, 500);  // 3100..3600, overlap counted once
  EXPECT_EQ(a.summary.steps[1].gpu_end - a.summary.steps[1].gpu_start, 500);
  EXPECT_EQ(a.summary.assigned_activities, 3);
  EXPECT_EQ(a.activity_step.back(), -1);

  AnalyzeOptions custom;
  custom.step_marker = "ProfilerStep#";
  StepAssignment b = detect_steps(p, custom);
  ASSERT_EQ(b.summary.steps.size(), 1u);
  EXPECT_EQ(b.summary.assigned_activities, 4);  // "stray" has no launch record: placed by its time
  EXPECT_EQ(b.placed_by_time, 1);
}

TEST(StepDetection, KindFromName) {
  EXPECT_EQ(step_kind_from_name("step[DECODE bs=8]"), "decode");
  EXPECT_EQ(step_kind_from_name("execute_context_0(0)_generation_4(4)"), "step");
  EXPECT_EQ(step_kind_from_name("prefill_step"), "prefill");
}

}  // namespace
}  // namespace cuprobe

namespace cuprobe {
namespace {

TEST(StepDetection, WorkWithoutALaunchRecordIsPlacedByTimeAndCounted) {
  Profile p;
  for (int s = 0; s < 3; ++s) {
    p.cpu.push_back(range(p, CpuRangeKind::kAnnotation, "step", s * 1000, s * 1000 + 600));
  }
  p.cpu.push_back(range(p, CpuRangeKind::kRuntime, "cudaLaunchKernel", 2100, 2110, 5));
  p.gpu.push_back(kernel(p, "driver_launched", 700, 900, 11));  // after step 0's CPU range: GPU lag
  p.gpu.push_back(kernel(p, "driver_launched", 1100, 1200, 12));
  p.gpu.push_back(kernel(p, "runtime_launched", 2200, 2300, 5));
  p.gpu.push_back(kernel(p, "late", 2700, 2800, 13));   // within one step length after the last
  p.gpu.push_back(kernel(p, "after", 9000, 9100, 14));  // long after: no step
  p.sort_by_time();
  StepAssignment a = detect_steps(p, {});
  EXPECT_EQ(a.activity_step, (std::vector<int>{0, 1, 2, 2, -1}));
  EXPECT_EQ(a.placed_by_time, 3);
}

}  // namespace
}  // namespace cuprobe

namespace cuprobe {
namespace {

// An asynchronous loop: each record_function range enqueues its step in 0.76 ms
// and returns; the GPU runs 2.62 ms of copies per step back to back. The step
// time is the GPU's step-to-step period, never shorter than the GPU work.
TEST(StepDetection, StepTimeIsTheGpuPeriodNotTheEnqueueTime) {
  Profile p;
  constexpr TimeNs kCpu = 760'000, kGpu = 2'620'000;
  for (int s = 0; s < 6; ++s) {
    TimeNs t0 = s * kCpu;
    p.cpu.push_back(range(p, CpuRangeKind::kAnnotation, "decode_step", t0, t0 + kCpu));
    p.cpu.push_back(range(p, CpuRangeKind::kRuntime, "cudaLaunchKernel", t0 + 10, t0 + 20, s + 1));
    TimeNs g0 = 100'000 + s * kGpu;
    p.gpu.push_back(kernel(p, "direct_copy_kernel_cuda", g0, g0 + kGpu, s + 1));
  }
  p.sort_by_time();
  StepAssignment a = detect_steps(p, {});
  ASSERT_EQ(a.summary.steps.size(), 6u);
  EXPECT_EQ(a.summary.cpu_from, "annotation");
  EXPECT_NEAR(a.summary.cpu_median_ms, 0.76, 1e-9);
  EXPECT_NEAR(a.summary.median_ms, 2.62, 1e-9);
  EXPECT_NEAR(a.summary.gpu_median_ms, 2.62, 1e-9);
  for (const Step& s : a.summary.steps) EXPECT_GE(s.time, s.gpu_busy);
}

// Steps with a pause between them on the GPU: the pause counts in the step
// before (host work, syncs); the last step is its own span.
TEST(StepDetection, StepTimeRunsToTheNextStepsFirstGpuWork) {
  Profile p;
  for (int s = 0; s < 3; ++s) {
    TimeNs t0 = s * 1'000'000;
    p.cpu.push_back(range(p, CpuRangeKind::kAnnotation, "step", t0, t0 + 900'000));
    p.cpu.push_back(range(p, CpuRangeKind::kRuntime, "cudaLaunchKernel", t0 + 10, t0 + 20, s + 1));
    p.gpu.push_back(kernel(p, "k", t0 + 50'000, t0 + 250'000, s + 1));
  }
  p.sort_by_time();
  StepAssignment a = detect_steps(p, {});
  ASSERT_EQ(a.summary.steps.size(), 3u);
  EXPECT_EQ(a.summary.steps[0].time, 1'000'000);
  EXPECT_EQ(a.summary.steps[1].time, 1'000'000);
  EXPECT_EQ(a.summary.steps[2].time, 200'000);
  EXPECT_NEAR(a.summary.median_ms, 1.0, 1e-9);
}

// issue 34: a program of 8 alike layers of 6 kernels that synchronizes after each step and reads nothing back.
// The layer lag matches the names everywhere; only the host's gap says where a step ends. `host_calls`: the launch
// and synchronize calls are in the trace (torch.profiler, `record --api`) and the GPU's gaps are all alike
// (launch-bound: every kernel waits for its launch), so only the synchronize tells; else a run file of GPU records
// only, where the synchronize leaves a longer idle gap.
Profile synchronized_loop(bool host_calls, TimeNs kernel_ns, TimeNs inside_gap, TimeNs sync_gap) {
  Profile p;
  const char* names[] = {"rmsnorm", "gemm_qkv", "attention", "gemm_o", "gemm_up", "gemm_down"};
  TimeNs gpu = 0;
  std::int64_t corr = 1;
  for (int step = 0; step < 30; ++step) {
    for (int layer = 0; layer < 8; ++layer) {
      for (int k = 0; k < 6; ++k) {
        bool first = layer == 0 && k == 0;
        TimeNs gap = first && step > 0 ? sync_gap : inside_gap + (corr * 7919) % 1'000;  // a little jitter
        TimeNs start = gpu + gap;
        if (host_calls)
          p.cpu.push_back(range(p, CpuRangeKind::kRuntime, "cudaLaunchKernel", start - 4'000, start - 1'000, corr));
        p.gpu.push_back(kernel(p, names[k], start, start + kernel_ns, corr++));
        gpu = start + kernel_ns;
      }
    }
    if (host_calls) p.cpu.push_back(range(p, CpuRangeKind::kRuntime, "cudaDeviceSynchronize", gpu - 1'000, gpu + 500));
  }
  p.sort_by_time();
  return p;
}

TEST(StepDetection, AStepOfAlikeLayersEndsAtTheHostsSynchronizeNotAtALayer) {
  // GPU records only (`cuprobe record`): 60 us kernels back to back, 25 us idle at each synchronize.
  Profile gaps = synchronized_loop(false, 60'000, 1'500, 25'000);
  StepAssignment a = detect_steps(gaps, {});
  EXPECT_EQ(a.summary.source, "periodicity");
  EXPECT_EQ(a.summary.period_kernels, 48);
  EXPECT_EQ(a.summary.marker, "period of 48 kernels, each step from the GPU idle gap the host leaves");
  ASSERT_EQ(a.summary.steps.size(), 30u);
  // 48 kernels of 60 us, 47 gaps of 1.5..2.5 us, and the 25 us synchronize gap.
  EXPECT_NEAR(a.summary.median_ms, 48 * 0.060 + 47 * 0.002 + 0.025, 0.03);

  // Launch-bound, with the host's calls: 3 us kernels each 12..13 us after the last, as after the synchronize.
  Profile calls = synchronized_loop(true, 3'000, 12'000, 12'500);
  StepAssignment b = detect_steps(calls, {});
  EXPECT_EQ(b.summary.period_kernels, 48);
  EXPECT_EQ(b.summary.marker, "period of 48 kernels, each step from the host's synchronize");
  ASSERT_EQ(b.summary.steps.size(), 30u);
  for (std::size_t s = 1; s < b.summary.steps.size(); ++s) EXPECT_EQ(b.activity_step[s * 48], static_cast<int>(s));
}

}  // namespace
}  // namespace cuprobe
