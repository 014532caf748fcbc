// Communication and copies beside compute: the overlap HTA shows as
// "computation overlapping communication", per GPU, over the window and per step.
#include "analysis/category_overlap.h"

#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "analysis/breakdown.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

constexpr TimeNs kUs = 1000;

void add(Profile& p, const char* name, TimeNs start_us, TimeNs end_us, std::int32_t device = 0,
         GpuActivityKind kind = GpuActivityKind::kKernel) {
  GpuActivity a;
  a.kind = kind;
  a.name = p.strings.intern(name);
  a.start = start_us * kUs;
  a.end = end_us * kUs;
  a.device = device;
  a.stream = static_cast<std::int64_t>(p.gpu.size());
  p.gpu.push_back(a);
}

TEST(CategoryOverlap, CommunicationAndCopiesAgainstComputePerGpu) {
  Profile p;
  add(p, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage)", 0, 100);
  add(p,
      "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_"
      "cublas",
      40, 70);
  add(p,
      "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_"
      "cublas",
      60, 90);
  add(p, "Memcpy HtoD (Pageable -> Device)", 80, 120, 0, GpuActivityKind::kMemcpy);
  // Compute on another GPU beside this GPU's communication does not hide it.
  add(p,
      "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_"
      "cublas",
      0, 100, 1);
  add(p, "Memset (Device)", 0, 100, 0, GpuActivityKind::kMemset);
  p.sort_by_time();
  std::vector<Profile> ps;
  ps.push_back(std::move(p));
  AnalyzeReport r = analyze_profiles(ps, {});
  const CategoryOverlap& o = r.ranks[0].overlap;
  EXPECT_DOUBLE_EQ(o.comm_ms, 0.100);
  EXPECT_DOUBLE_EQ(o.comm_overlapped_ms, 0.050);  // [40, 90) of [0, 100)
  EXPECT_DOUBLE_EQ(o.comm_overlapped_share, 0.5);
  EXPECT_DOUBLE_EQ(o.copy_ms, 0.040);
  EXPECT_DOUBLE_EQ(o.copy_overlapped_ms, 0.010);  // [80, 90)
  EXPECT_DOUBLE_EQ(o.copy_overlapped_share, 0.25);
  // Shares of the summed activity time add up to 100%; time over busy time (busy_ratio, never called a share)
  // does not.
  double summed = 0, of_busy = 0;
  for (const auto& c : r.ranks[0].categories) {
    summed += c.share;
    EXPECT_DOUBLE_EQ(c.share, c.summed_share);
    of_busy += c.busy_ratio;
  }
  EXPECT_NEAR(summed, 1.0, 1e-12);
  EXPECT_GT(of_busy, 1.0);
}

// The two TP ranks (tests/data/tp2_mlp_decode_rank*) run every kernel on one stream (7): their
// communication never overlaps compute, the shares of summed time add up to 100%, and the ratios to busy time
// to 100.0% and 100.2% (two kernels' timestamps overlap by 7 us on rank 1).
TEST(CategoryOverlap, TensorParallelRanksOnOneStreamHaveNoOverlapAndSharesThatAddUp) {
  std::vector<Profile> ps =
      load_profiles({test::data_path("tp2_mlp_decode_rank0.json.gz"), test::data_path("tp2_mlp_decode_rank1.json.gz")});
  AnalyzeReport r = analyze_profiles(ps, {});
  ASSERT_EQ(r.ranks.size(), 2u);
  for (const RankAnalysis& a : r.ranks) {
    double summed = 0, of_busy = 0;
    for (const auto& c : a.categories) {
      summed += c.share;
      of_busy += c.busy_ratio;
    }
    EXPECT_NEAR(summed, 1.0, 1e-9);
    EXPECT_NEAR(of_busy, 1.0, 0.003);
    EXPECT_NEAR(a.summed_ms / a.gpu_time_ms(), of_busy, 1e-9);
    EXPECT_GT(a.overlap.comm_ms, 0);
    EXPECT_EQ(a.overlap.comm_overlapped_ms, 0);
    EXPECT_EQ(a.overlap.steps_with_comm, 8);
    EXPECT_EQ(a.overlap.comm_overlapped_share_step_median, 0);
    // Per step: the step's own figures; no more than the window's.
    TimeNs comm = 0;
    for (const Step& s : a.steps.steps) {
      EXPECT_LE(s.comm_overlapped_ns, s.comm_ns);
      comm += s.comm_ns;
    }
    EXPECT_LE(static_cast<double>(comm) / 1e6, a.overlap.comm_ms + 1e-9);
  }
}

// Per step: communication of one step beside compute of the same step.
TEST(CategoryOverlap, PerStepSharesAreTheStepsOwn) {
  Profile p;
  for (int s = 0; s < 4; ++s) {
    TimeNs t = s * 1000;
    add(p, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage)", t, t + 100);
    // Steps 0 and 1: compute beside the whole collective; steps 2 and 3: beside none of it.
    if (s < 2)
      add(p, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_execute_kernel__5x_cublas", t, t + 100);
    if (s >= 2)
      add(p, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_execute_kernel__5x_cublas", t + 200, t + 300);
  }
  p.sort_by_time();
  std::vector<KernelClass> classes = classify_activities(p);
  RankAnalysis a;
  StepAssignment steps;
  steps.summary.steps.resize(4);
  steps.activity_step.resize(p.gpu.size());
  for (std::size_t i = 0; i < p.gpu.size(); ++i)
    steps.activity_step[i] = static_cast<int>(p.gpu[i].start / (1000 * kUs));
  a.steps = steps.summary;
  fill_category_overlap(p, classes, steps, a);
  EXPECT_DOUBLE_EQ(a.overlap.comm_overlapped_share, 0.5);
  EXPECT_EQ(a.overlap.steps_with_comm, 4);
  EXPECT_DOUBLE_EQ(a.overlap.comm_overlapped_share_step_median, 0.5);  // median of 1, 1, 0, 0
  EXPECT_EQ(a.steps.steps[0].comm_overlapped_ns, 100 * kUs);
  EXPECT_EQ(a.steps.steps[3].comm_overlapped_ns, 0);
  EXPECT_EQ(a.steps.steps[3].comm_ns, 100 * kUs);
}

}  // namespace
}  // namespace cuprobe
