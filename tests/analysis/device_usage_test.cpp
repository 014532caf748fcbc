// One process driving several GPUs (issue 12 item 6): steps found once for the process, each GPU's own busy and
// idle time, and the pipeline bubble when they take turns.
#include "analysis/device_usage.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

AnalyzeReport analyze_one(Profile p) {
  std::vector<Profile> ps;
  ps.push_back(std::move(p));
  return analyze_profiles(ps, {});
}

const Finding* find(const std::vector<Finding>& findings, const std::string& id) {
  for (const auto& f : findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

// tests/data/make_multi_gpu_traces.py: per step GPU 0 works 258 us, then GPU 1 280 us, then 65 us of host work.
TEST(DeviceUsage, APipelineAcrossTwoGpusShowsEachGpusIdleAndTheBubble) {
  AnalyzeReport report = analyze_one(load_profile(test::data_path("format_pipeline_two_gpus.json")));
  ASSERT_EQ(report.ranks.size(), 1u);
  const RankAnalysis& a = report.ranks[0];
  EXPECT_EQ(a.steps.source, "annotation");
  ASSERT_EQ(a.steps.steps.size(), 4u);
  EXPECT_NEAR(a.steps.median_ms, 0.603, 1e-6);
  EXPECT_NEAR(a.steps.gpu_median_ms, 0.538, 1e-6);  // any GPU working
  ASSERT_EQ(a.devices.size(), 2u);
  EXPECT_EQ(a.devices[0].device, 0);
  EXPECT_EQ(a.devices[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(a.devices[0].activities, 4 * 11);
  EXPECT_EQ(a.devices[1].activities, 4 * 13);
  EXPECT_NEAR(a.devices[0].step_busy_median_ms, 0.258, 1e-6);
  EXPECT_NEAR(a.devices[1].step_busy_median_ms, 0.280, 1e-6);
  EXPECT_NEAR(a.devices[0].idle_share, 1 - 0.258 / 0.603, 1e-6);
  EXPECT_NEAR(a.devices[0].waiting_share, 0.280 / 0.603, 1e-6);  // idle while GPU 1 works
  EXPECT_NEAR(a.devices[1].waiting_share, 0.258 / 0.603, 1e-6);
  EXPECT_NEAR(a.overlapped_step_ms, 0.603 - 0.538 + 0.280, 1e-6);
  // The union hides each GPU's idle: no gpu_idle (11% of the step no GPU works), but the turns are a finding.
  EXPECT_EQ(find(a.findings, "gpu_idle"), nullptr);
  const Finding* bubble = find(a.findings, "pipeline_bubble");
  ASSERT_NE(bubble, nullptr);
  EXPECT_EQ(bubble->severity, "high");
  EXPECT_NEAR(bubble->step_share, 0.258 / 0.603, 1e-6);
  EXPECT_NEAR(bubble->what_if.step_ms_now, 0.603, 1e-6);
  ASSERT_TRUE(bubble->what_if.step_ms_after);
  EXPECT_NEAR(*bubble->what_if.step_ms_after, 0.345, 1e-6);
  EXPECT_EQ(bubble->title, "2 GPUs take turns: each waits 43%-46% of the step while another works");
}

TEST(DeviceUsage, WithoutAnnotationsThePipelinesStepsComeFromOneGpusKernelsAndHoldBoth) {
  Profile p = load_profile(test::data_path("format_pipeline_two_gpus.json"));
  std::erase_if(p.cpu, [](const CpuRange& r) { return r.kind == CpuRangeKind::kAnnotation; });
  AnalyzeReport report = analyze_one(std::move(p));
  const RankAnalysis& a = report.ranks[0];
  EXPECT_EQ(a.steps.source, "periodicity");
  EXPECT_EQ(a.steps.period_kernels, 10);  // GPU 0's kernels per step: it opens each step
  ASSERT_EQ(a.steps.steps.size(), 4u);
  for (const Step& s : a.steps.steps) EXPECT_EQ(s.activities, 24);  // both GPUs' work, copies included
  EXPECT_NEAR(a.steps.median_ms, 0.603, 1e-6);
  EXPECT_NE(find(a.findings, "pipeline_bubble"), nullptr);
}

// DataParallel: one process runs a replica on each GPU at once; the GPUs' kernels interleave differently in
// every step on the GPU clock, but each GPU repeats its own sequence.
TEST(DeviceUsage, ReplicasOnTwoGpusAtOnceAreStepsOfBothGpus) {
  Profile p;
  const char* names[] = {"gemm_a", "norm_b", "gemm_c", "act_d", "gemm_e", "norm_f", "gemm_g", "act_h"};
  const TimeNs lag[] = {0, 23000, 5000, 41000, 12000, 30000};  // GPU 1 behind GPU 0 by this much, per step
  std::int64_t corr = 0;
  TimeNs t = 0;
  for (int s = 0; s < 6; ++s) {
    for (std::int32_t device = 0; device < 2; ++device) {
      TimeNs gpu = t + 10000 + (device ? lag[s] : 0);
      for (int k = 0; k < 8; ++k) {
        CpuRange launch;
        launch.kind = CpuRangeKind::kRuntime;
        launch.name = p.strings.intern("cudaLaunchKernel");
        launch.pid = launch.tid = 1;
        launch.correlation = ++corr;
        launch.start = t + device * 8 * 1000 + k * 1000;
        launch.end = launch.start + 500;
        p.cpu.push_back(launch);
        GpuActivity a;
        a.name = p.strings.intern(names[k]);
        a.device = device;
        a.pid = 1;
        a.correlation = corr;
        a.start = gpu + k * 8000;
        a.end = a.start + 7000;
        p.gpu.push_back(a);
      }
    }
    t += 200000;
  }
  p.sort_by_time();
  AnalyzeReport report = analyze_one(std::move(p));
  const RankAnalysis& a = report.ranks[0];
  EXPECT_EQ(a.steps.source, "periodicity");
  ASSERT_EQ(a.steps.steps.size(), 6u);
  for (const Step& s : a.steps.steps) EXPECT_EQ(s.activities, 16);
  ASSERT_EQ(a.devices.size(), 2u);
  EXPECT_NEAR(a.devices[0].step_busy_median_ms, 8 * 0.007, 1e-9);
  EXPECT_NEAR(a.devices[1].step_busy_median_ms, 8 * 0.007, 1e-9);
  EXPECT_EQ(find(a.findings, "pipeline_bubble"), nullptr);  // they work at once: nothing to overlap
  // Shares of GPU time are of both GPUs' busy time: two GPUs working at once are not one GPU at 200%.
  EXPECT_NEAR(a.gpu_time_ms(), 2 * 6 * 8 * 0.007, 1e-9);
  double shares = 0;
  for (const auto& c : a.categories) shares += c.share;
  EXPECT_NEAR(shares, 1.0, 1e-9);
  EXPECT_NEAR(a.tensor_core_basis_ms, a.gpu_time_ms(), 1e-9);
}

TEST(DeviceUsage, OneGpuIsTheRanksOwnFigures) {
  Profile p;
  p.gpu.push_back(GpuActivity{.start = 0, .end = 400, .device = 3});
  p.gpu.push_back(GpuActivity{.start = 600, .end = 1000, .device = 3});
  p.devices.push_back(DeviceInfo{.id = 3, .name = "NVIDIA H200"});
  AnalyzeReport report = analyze_one(std::move(p));
  const RankAnalysis& r = report.ranks[0];
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].device, 3);
  EXPECT_EQ(r.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(r.devices[0].activities, 2);
  EXPECT_DOUBLE_EQ(r.devices[0].busy_ms, r.gpu_busy_ms);
  EXPECT_NEAR(r.devices[0].idle_share, 0.2, 1e-9);
  EXPECT_EQ(r.devices[0].waiting_share, 0.0);
  EXPECT_EQ(r.overlapped_step_ms, 0.0);
}

}  // namespace
}  // namespace cuprobe
