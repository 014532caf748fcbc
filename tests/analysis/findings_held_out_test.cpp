// issue 25 on real PyTorch programs recorded on the H200 (torch 2.11, record_shapes; /work/gpu_traces README,
// tests/data/README.md): the truth is CUDA events measured in a separate process without the profiler.
#include <gtest/gtest.h>

#include <filesystem>

#include "analysis/analyze.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

AnalyzeReport analyze_file(const std::string& name) {
  return analyze_profiles(load_profiles({test::data_path(name)}), {});
}

const Finding* find(const std::vector<Finding>& findings, const std::string& id) {
  for (const auto& f : findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

// 8 layers each casting a 495,000 x 576 FP8 pool to bf16, then torch.gather with the page table expanded to
// [3072, 576] (stride 0). Truth: the step's GPU time 6.95 ms, the fixed step's (gather, then cast) 0.218 ms.
TEST(FindingsHeldOut, PoolCastThenExpandedGatherProjectsTheGatheredOnlyFix) {
  AnalyzeReport r = analyze_file("h200_pool_gather_expanded_index.json.gz");
  const RankAnalysis& a = r.ranks.at(0);
  ASSERT_EQ(a.steps.steps.size(), 10u);
  const Finding& top = r.findings.at(0);
  ASSERT_EQ(top.id, "copy_cast_dominant");
  EXPECT_EQ(top.severity, "high");
  ASSERT_TRUE(top.what_if.step_ms_after_alone);
  EXPECT_NEAR(*top.what_if.step_ms_after_alone, 0.218, 0.1);  // projected 0.26 ms
  EXPECT_NE(top.what_if.description.find("sized by index shapes"), std::string::npos);
  // The expanded index is read by its storage: 3072 int64, not 3072 x 576 (which made 5.0 TB/s, 104% of peak).
  bool seen = false;
  for (const auto& k : a.kernels) {
    if (k.name.find("vectorized_gather_kernel") == std::string::npos) continue;
    seen = true;
    ASSERT_TRUE(k.work);
    EXPECT_DOUBLE_EQ(k.work->bytes / static_cast<double>(k.work->calls), 3072.0 * 576 * 2 * 2 + 3072 * 8);
    EXPECT_LT(k.work->achieved_tbps, 4.8);
    EXPECT_EQ(k.work->beyond_peak, "");
  }
  EXPECT_TRUE(seen);
  // The generic finding counts only what the cast's fix leaves: the two add up to at most the step.
  const Finding* roof = find(r.findings, "low_tensor_core_share");
  ASSERT_TRUE(roof);
  EXPECT_EQ(roof->severity, "low");
  EXPECT_LT(roof->gain_ms(), 0.05 * a.steps.median_ms);
  EXPECT_GT(roof->alone_gain_ms(), 0.5 * a.steps.median_ms);
  EXPECT_LE(top.gain_ms() + roof->gain_ms(), a.steps.median_ms);
}

// The fixed form replayed as a CUDA graph, each replay followed by a 1 KB read-back: 20 steps, the read-back's
// what-if is tiny, so it is low and below every finding that explains more.
TEST(FindingsHeldOut, AOneKilobyteReadBackPerGraphReplayIsLowAndRankedBelow) {
  AnalyzeReport r = analyze_file("h200_pool_graph_readback.json.gz");
  ASSERT_EQ(r.ranks.at(0).steps.steps.size(), 20u);
  const Finding* copies = find(r.findings, "host_memcpy_in_step");
  ASSERT_TRUE(copies);
  EXPECT_EQ(copies->severity, "low");
  EXPECT_LT(copies->gain_ms(), 0.01 * r.ranks[0].steps.median_ms);
  for (const auto& f : r.findings) {
    if (&f == copies) break;
    EXPECT_GE(f.gain_ms(), copies->gain_ms()) << f.id;
  }
}

// Hugging Face generate called 4 times (32 new tokens each, eager): 124 decode steps and 4 prefills, not 4 steps
// of a whole call (launch calls trimmed away: GPU times stand in).
TEST(FindingsHeldOut, FourGenerateCallsGiveTheirDecodeStepsEachPrefillApart) {
  AnalyzeReport r = analyze_file("h200_generate4_eager_trimmed.json.gz");
  const StepSummary& s = r.ranks.at(0).steps;
  EXPECT_EQ(s.source, "periodicity");
  ASSERT_EQ(s.steps.size(), 128u);
  EXPECT_EQ(s.period_kernels, 223);
  for (std::size_t call = 0; call < 4; ++call) {
    const Step& prefill = s.steps[call * 32];
    const Step& decode = s.steps[call * 32 + 1];
    EXPECT_GT(prefill.activities, decode.activities + 20) << "call " << call;
    EXPECT_GT(prefill.gpu_busy, decode.gpu_busy) << "call " << call;
  }
}

// Over every bundled trace: a rank's gains add up to at most its step, order and severity agree, and a what-if
// under 1% of the step is low.
TEST(FindingsHeldOut, GainsAddUpAndSeverityFollowsTheOrderOnEveryBundledTrace) {
  auto severity_rank = [](const std::string& s) { return s == "high" ? 0 : s == "medium" ? 1 : 2; };
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::data_path(""))) {
    std::string name = entry.path().filename().string();
    if (!name.ends_with(".json") && !name.ends_with(".json.gz")) continue;
    if (name.starts_with("hostile")) continue;  // counted repairs, not a workload
    SCOPED_TRACE(name);
    AnalyzeReport r = analyze_profiles(load_profiles({entry.path().string()}), {});
    ++traces;
    for (const auto& a : r.ranks) {
      double sum = 0;
      double now = a.steps.steps.empty() ? a.window_ms : a.steps.median_ms;
      for (std::size_t i = 0; i < a.findings.size(); ++i) {
        const Finding& f = a.findings[i];
        sum += f.gain_ms();
        if (f.gain_ms() < 0.01 * now) {
          EXPECT_EQ(f.severity, "low") << f.id;
        }
        if (i > 0) {
          EXPECT_GE(a.findings[i - 1].gain_ms(), f.gain_ms()) << f.id;
          EXPECT_LE(severity_rank(a.findings[i - 1].severity), severity_rank(f.severity)) << f.id;
        }
      }
      EXPECT_LE(sum, now * (1 + 1e-9));
    }
  }
  EXPECT_GT(traces, 10);
}

}  // namespace
}  // namespace cuprobe
