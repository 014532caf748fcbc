// Issue 34 item 6, last clause: on the zoo's fixed variants (bench/gpu/zoo, H200, torch 2.11; tests/data/zoo), no
// [high]/[medium] finding whose fix would not change the step by its claimed saving. The truths quoted are the
// CUDA-event steps without the profiler (tests/data/zoo/truth.json).
#include <gtest/gtest.h>

#include <utility>

#include "analysis/analyze.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

AnalyzeReport analyze_zoo(const std::string& program, const std::string& variant, const std::string& file) {
  return analyze_profiles(load_profiles({test::data_path("zoo/traces/" + program + "/" + variant + "/" + file)}), {});
}

const Finding* find(const AnalyzeReport& r, const std::string& id) {
  for (const Finding& f : r.findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

double number(const Finding& f, const std::string& name) {
  for (const auto& [n, v] : f.numbers) {
    if (n == name) return v;
  }
  return -1;
}

bool loud(const Finding& f) { return f.severity == "high" || f.severity == "medium"; }

// The fixed pool cast with shapes: 3.43 ms traced, 1.65 ms true, 0.19 ms of GPU work. gpu_idle is judged on the step
// without the profiler's host work (2 us per recorded event) and claims the share a CUDA graph saves of that step at
// its shortest (7 us per event, never below the GPU's busy time or the host's launch floor): the least it saves.
TEST(ZooFixedVariants, GpuIdleIsJudgedOnTheStepWithoutTheProfilersHostWork) {
  AnalyzeReport r = analyze_zoo("pool_cast_whole", "fixed", "shapes.json.gz");
  const Finding* idle = find(r, "gpu_idle");
  ASSERT_NE(idle, nullptr);
  double events = number(*idle, "profiler_events_per_step");
  double without = number(*idle, "step_ms_without_profiler");
  EXPECT_GT(events, 300);  // 352 operators, 49 runtime calls, 16 driver calls, the annotation
  EXPECT_NEAR(without, r.ranks.at(0).steps.median_ms - events * 2e-3, 1e-6);
  ASSERT_TRUE(idle->what_if.step_ms_after_alone);
  double least = number(*idle, "step_ms_without_profiler_least");
  EXPECT_GE(least, r.ranks.at(0).steps.median_ms - events * 7e-3 - 1e-6);
  EXPECT_LE(least, without);
  double claimed = 1 - *idle->what_if.step_ms_after_alone / idle->what_if.step_ms_now;
  EXPECT_NEAR(claimed, 1 - r.ranks.at(0).steps.gpu_median_ms / least, 1e-6);
  EXPECT_LE(claimed, 1 - r.ranks.at(0).steps.gpu_median_ms / without);
  EXPECT_LT(claimed, 1 - r.ranks.at(0).steps.gpu_median_ms / r.ranks.at(0).steps.median_ms);
  EXPECT_NE(idle->what_if.description.find("without torch.profiler's own host work"), std::string::npos);
}

// With stacks the library's Python frames count too (the importer keeps only their starts): the fixed unfused chain
// (3.16 ms traced, 1.46 ms true around 1.26 ms of GPU work) is not idle enough for gpu_idle.
TEST(ZooFixedVariants, LibraryPythonFramesCountAsTheProfilersWork) {
  AnalyzeReport r = analyze_zoo("unfused_norm_rope", "fixed", "stack.json.gz");
  const Finding* idle = find(r, "gpu_idle");
  EXPECT_TRUE(idle == nullptr || !loud(*idle));
  // A run file has no profiler: nothing is taken off.
  AnalyzeReport run = analyze_zoo("eager_launch_bound", "bug", "record.db.gz");
  const Finding* launch = find(run, "launch_bound");
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(number(*launch, "step_ms_without_profiler"), -1);
}

// Pinned, non_blocking copies at the link's rate are the fix of pageable_h2d, not a host memcpy problem.
TEST(ZooFixedVariants, PinnedCopiesAtLinkRateAreNotAHostMemcpyFinding) {
  for (const char* file : {"shapes.json.gz", "record.db.gz"}) {
    AnalyzeReport r = analyze_zoo("pageable_h2d", "fixed", file);
    const Finding* copies = find(r, "host_memcpy_in_step");
    EXPECT_TRUE(copies == nullptr || !loud(*copies)) << file;
  }
  AnalyzeReport bug = analyze_zoo("pageable_h2d", "bug", "shapes.json.gz");
  EXPECT_EQ(bug.findings.at(0).id, "pageable_host_copy");
}

// A run file without launch calls: the fixed pool cast's copies sit between host-late launches (a 1.00 ms step of
// 0.19 ms GPU work), so removing their GPU time saves the step almost nothing.
TEST(ZooFixedVariants, RunFileGpuWorkFixesStopAtTheHostsLaunches) {
  AnalyzeReport r = analyze_zoo("pool_cast_whole", "fixed", "record.db.gz");
  const Finding* copies = find(r, "copy_cast_dominant");
  ASSERT_NE(copies, nullptr);
  EXPECT_FALSE(loud(*copies));
  EXPECT_GE(number(*copies, "gpu_path_saving_ms"), 0);
  EXPECT_LT(number(*copies, "gpu_path_saving_ms"), 0.02);
  ASSERT_TRUE(copies->claim.max_gain_ms);
  EXPECT_NE(copies->what_if.description.find("waits for the host's launches"), std::string::npos);
  // The bug's cast is GPU-bound (back-to-back kernels): its projection stands.
  AnalyzeReport bug = analyze_zoo("pool_cast_whole", "bug", "record.db.gz");
  ASSERT_EQ(bug.findings.at(0).id, "copy_cast_dominant");
  ASSERT_TRUE(bug.findings.at(0).what_if.step_ms_after_alone);
  EXPECT_LT(*bug.findings.at(0).what_if.step_ms_after_alone, 0.4 * bug.findings.at(0).what_if.step_ms_now);
}

// Run files have no operators: a plain matmul (grid without a batch) around a softmax is not attention on the math
// path; Inductor's fused kernels are not an unfused chain.
TEST(ZooFixedVariants, RunFilePatternsNeedWhatTheRunFileShows) {
  AnalyzeReport churn = analyze_zoo("alloc_churn", "fixed", "record.db.gz");
  EXPECT_EQ(find(churn, "attention_math_path"), nullptr);
  AnalyzeReport attention = analyze_zoo("attention_math_path", "bug", "record.db.gz");
  EXPECT_EQ(attention.findings.at(0).id, "attention_math_path");
  AnalyzeReport compiled = analyze_zoo("unfused_norm_rope", "fixed", "record.db.gz");
  const Finding* chain = find(compiled, "unfused_elementwise");
  EXPECT_TRUE(chain == nullptr || !loud(*chain));
  AnalyzeReport eager = analyze_zoo("unfused_norm_rope", "bug", "record.db.gz");
  EXPECT_EQ(eager.findings.at(0).id, "unfused_elementwise");
}

// Run files name what only operators named before (issue 34 item 4): the lm_head's GEMM, its output's cast and an
// argmax reading a small part of it; K and V copied alike before attention; the experts' read-back, select, GEMMs
// and index_add; the host's round trip from a read-back to a host-to-device copy. Their fixed variants show none.
TEST(ZooFixedVariants, RunFilesNameCausesFromKernelsAlone) {
  const std::pair<const char*, const char*> cases[] = {{"lm_head_all_positions", "logits_all_positions"},
                                                       {"gqa_repeat_interleave", "kv_heads_repeated"},
                                                       {"moe_python_loop", "moe_expert_loop"},
                                                       {"host_work_critical_path", "host_work_in_step"},
                                                       {"host_sync_in_layer_loop", "sync_inside_step"}};
  for (auto [program, id] : cases) {
    AnalyzeReport bug = analyze_zoo(program, "bug", "record.db.gz");
    ASSERT_FALSE(bug.findings.empty()) << program;
    EXPECT_EQ(bug.findings.front().id, id) << program;
    AnalyzeReport fixed = analyze_zoo(program, "fixed", "record.db.gz");
    const Finding* f = find(fixed, id);
    EXPECT_TRUE(f == nullptr || !loud(*f)) << program;
  }
  // The layers' read-backs inside the host_sync step, the experts' inside the MoE step: the program's iterations.
  EXPECT_EQ(analyze_zoo("host_sync_in_layer_loop", "bug", "record.db.gz").ranks.at(0).steps.period_kernels, 97);
  EXPECT_EQ(analyze_zoo("moe_python_loop", "bug", "record.db.gz").ranks.at(0).steps.period_kernels, 500);
}

// `record --api`: allocation calls (named cudaMalloc_v3020) during the GPU's idle are allocation churn.
TEST(ZooFixedVariants, RecordApiAllocationCallsAreChurn) {
  AnalyzeReport bug = analyze_zoo("alloc_churn", "bug", "record_api.db.gz");
  ASSERT_FALSE(bug.findings.empty());
  EXPECT_EQ(bug.findings.front().id, "allocation_churn");
  AnalyzeReport fixed = analyze_zoo("alloc_churn", "fixed", "record_api.db.gz");
  EXPECT_EQ(find(fixed, "allocation_churn"), nullptr);
}

}  // namespace
}  // namespace cuprobe
