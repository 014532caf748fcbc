// The GPU's idle gaps inside steps and what stopped the host (analysis/step_gaps.h), and the findings built on them
// (sync_inside_step, host_work_in_step, allocation_churn): issue 34's planted read-backs, host work and allocations.
#include "analysis/step_gaps.h"

#include <gtest/gtest.h>

#include <vector>

#include "analysis/analyze.h"
#include "analysis/launch_context.h"
#include "launched_profile.h"

namespace cuprobe {
namespace {

using test::LaunchedProfile;

constexpr TimeNs kUs = 1000;

// Steps of 1 ms (ProfilerStep#N annotations); in each, `layers` layers of a 50 us kernel launched well ahead; after
// each layer but the last a 1-byte read-back, then the GPU idles `idle_us` until the host launches the next layer.
LaunchedProfile read_back_steps(int steps, int layers, TimeNs idle_us, bool read_back = true) {
  LaunchedProfile lp;
  for (int s = 0; s < steps; ++s) {
    TimeNs t0 = s * 2000 * kUs;
    lp.annotation("ProfilerStep#" + std::to_string(s), t0, t0 + 1990 * kUs);
    TimeNs gpu = t0 + 10 * kUs;
    TimeNs host = t0;
    for (int l = 0; l < layers; ++l) {
      lp.launch("gemm_kernel", host, host + 5 * kUs, gpu, gpu + 50 * kUs);
      gpu += 50 * kUs;
      host += 6 * kUs;
      if (l + 1 == layers) break;
      if (read_back) {
        lp.launch("Memcpy DtoH (Device -> Pageable)", host, host + 2 * kUs, gpu, gpu + 2 * kUs, 7, "cudaMemcpyAsync");
        lp.p.gpu.back().kind = GpuActivityKind::kMemcpy;
        lp.p.gpu.back().memcpy_kind = MemcpyKind::kDtoH;
        lp.p.gpu.back().bytes = 1;
        gpu += 2 * kUs;
      }
      host = gpu + idle_us * kUs - 5 * kUs;  // the host waited for the copy, then launches: the GPU starves
      gpu += idle_us * kUs;
    }
  }
  return lp;
}

AnalyzeReport analyze(LaunchedProfile& lp) {
  std::vector<Profile> profiles;
  profiles.push_back(std::move(lp.sorted()));
  return analyze_profiles(profiles, {});
}

const Finding* find(const AnalyzeReport& r, const std::string& id) {
  for (const auto& f : r.findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

TEST(StepGaps, AGapAfterARead_backIsTheRead_backs) {
  LaunchedProfile lp = read_back_steps(3, 4, 30);
  Profile& p = lp.sorted();
  StepAssignment steps = detect_steps(p, {});
  ASSERT_EQ(steps.summary.steps.size(), 3u);
  std::vector<StepGap> gaps = step_gaps(p, steps, LaunchContext(p));
  ASSERT_EQ(gaps.size(), 9u);  // 3 per step: the idle between steps is no gap
  for (const auto& g : gaps) {
    EXPECT_EQ(g.cause, GapCause::kReadBack);
    EXPECT_NEAR(g.ms(), 0.030, 1e-9);
    EXPECT_TRUE(g.starved);
  }
}

TEST(StepGaps, SyncInsideStepClaimsTheIdleAfterItsRead_backs) {
  LaunchedProfile lp = read_back_steps(4, 12, 40);
  AnalyzeReport r = analyze(lp);
  const Finding* f = find(r, "sync_inside_step");
  ASSERT_TRUE(f);
  ASSERT_TRUE(f->what_if.step_ms_after_alone);
  // 11 read-backs per step, each followed by 40 us of idle.
  EXPECT_NEAR(f->what_if.step_ms_now - *f->what_if.step_ms_after_alone, 11 * 0.040, 1e-6);
  EXPECT_EQ(find(r, "host_work_in_step"), nullptr);
}

TEST(StepGaps, LongIdleWithoutARead_backIsHostWork) {
  LaunchedProfile lp = read_back_steps(4, 3, 300, false);
  AnalyzeReport r = analyze(lp);
  EXPECT_EQ(find(r, "sync_inside_step"), nullptr);
  const Finding* f = find(r, "host_work_in_step");
  ASSERT_TRUE(f);
  // Each 300 us gap less the profiler's own work in it: 2 us for the one event it recorded there (the next launch).
  EXPECT_NEAR(f->what_if.step_ms_now - *f->what_if.step_ms_after_alone, 2 * (0.300 - 0.002), 1e-6);
}

// `cuprobe record --api` records runtime calls but no operators: the framework's Python between its calls is time in
// no range. An eager framework calls the runtime every few microseconds (cudaGetDevice, launches): a 300 us gap full
// of such calls, none more than 100 us apart, is the framework, not the host's own work; a gap without any is.
TEST(StepGaps, WithoutOperatorsTheRuntimeCallsTellTheFrameworkFromHostWork) {
  LaunchedProfile busy = read_back_steps(4, 3, 300, false);
  for (const GpuActivity& a : std::vector<GpuActivity>(busy.p.gpu)) {
    for (TimeNs t = a.end + 20 * kUs; t + 30 * kUs < a.end + 300 * kUs; t += 40 * kUs) {
      busy.p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kRuntime,
                                    .name = busy.p.strings.intern("cudaGetDevice_v3020"),
                                    .start = t,
                                    .end = t + kUs,
                                    .pid = 1,
                                    .tid = 1});
    }
  }
  EXPECT_EQ(find(analyze(busy), "host_work_in_step"), nullptr);
  LaunchedProfile idle = read_back_steps(4, 3, 300, false);
  EXPECT_NE(find(analyze(idle), "host_work_in_step"), nullptr);
}

TEST(StepGaps, RuntimeCallNamesLoseTheirApiVersion) {
  EXPECT_EQ(runtime_base_name("cudaMalloc_v3020"), "cudaMalloc");
  EXPECT_EQ(runtime_base_name("cuMemAlloc_v2"), "cuMemAlloc");
  EXPECT_EQ(runtime_base_name("cudaMalloc"), "cudaMalloc");
  EXPECT_EQ(runtime_base_name("my_var_name"), "my_var_name");
  EXPECT_TRUE(allocation_call("cudaFree_v3020"));
  EXPECT_FALSE(allocation_call("cudaFreeHost_v3020"));
}

TEST(StepGaps, OneRead_backPerStepIsNotASyncInsideTheStep) {
  LaunchedProfile lp = read_back_steps(4, 2, 30);  // one read-back, mid-step, 30 us: neither finding
  AnalyzeReport r = analyze(lp);
  EXPECT_EQ(find(r, "sync_inside_step"), nullptr);
  EXPECT_EQ(find(r, "host_work_in_step"), nullptr);
}

TEST(StepGaps, AnAllocationCallDuringTheIdleIsAllocationChurn) {
  LaunchedProfile lp = read_back_steps(3, 3, 500, false);
  for (int s = 0; s < 3; ++s) {
    TimeNs t = s * 2000 * kUs + 100 * kUs;  // inside the first gap of each step
    lp.p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kRuntime,
                                .name = lp.p.strings.intern("cudaFree"),
                                .start = t,
                                .end = t + 300 * kUs,
                                .pid = 1,
                                .tid = 1});
  }
  AnalyzeReport r = analyze(lp);
  const Finding* f = find(r, "allocation_churn");
  ASSERT_TRUE(f);
  EXPECT_NEAR(f->what_if.step_ms_now - *f->what_if.step_ms_after_alone, 0.500, 1e-6);  // the gap it falls in
}

}  // namespace
}  // namespace cuprobe
