// issue 34: each finding names the user's source line and function that launched its kernels.
#include "analysis/finding_sources.h"

#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "analysis/launched_profile.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

void frame(test::LaunchedProfile& lp, const std::string& name, TimeNs start, TimeNs end) {
  lp.p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kPython,
                              .name = lp.p.strings.intern(name),
                              .start = start,
                              .end = end,
                              .pid = 1,
                              .tid = 1});
}

// The user's forward (model.py:40) calls a library frame (the importer keeps only the user's, so it is not in the
// profile), which launches the cast; model.py:60 launches the matmul; the loop synchronizes in run (model.py:80).
Profile two_lines() {
  test::LaunchedProfile lp;
  frame(lp, "model.py(80): run", 0, 10'000);
  frame(lp, "model.py(40): forward", 100, 1'000);
  lp.launch("cast_kernel", 200, 210, 300, 900);
  lp.launch("cast_kernel", 400, 410, 900, 1'500);
  frame(lp, "model.py(60): project", 1'100, 2'000);
  lp.launch("gemm_kernel", 1'200, 1'210, 1'500, 1'700);
  lp.launch("cast_kernel", 2'100, 2'110, 2'200, 2'400);  // in run, outside the inner frames
  lp.p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kRuntime,
                              .name = lp.p.strings.intern("cudaDeviceSynchronize"),
                              .start = 2'200,
                              .end = 2'500,
                              .pid = 1,
                              .tid = 1});
  lp.sorted();
  return std::move(lp.p);
}

TEST(FindingSources, EachActivityTakesTheInnermostUserFrameAroundItsLaunch) {
  Profile p = two_lines();
  LaunchSources s = launch_sources(p);
  ASSERT_TRUE(s.any);
  std::vector<std::string> frames;
  for (StringId id : s.of_activity) frames.emplace_back(p.name_of(id));
  EXPECT_EQ(frames, (std::vector<std::string>{"model.py(40): forward", "model.py(40): forward", "model.py(60): project",
                                              "model.py(80): run"}));
  ASSERT_EQ(s.synchronizes.size(), 1u);
  EXPECT_EQ(p.name_of(s.synchronizes[0].first), "model.py(80): run");
}

TEST(FindingSources, AFindingsSourcesAreItsKernelsLinesByGpuTime) {
  Profile p = two_lines();
  StepAssignment steps;
  steps.activity_step.assign(p.gpu.size(), -1);
  std::vector<Finding> findings(3);
  findings[0].id = "copy_cast_dominant";
  findings[0].kernels = {"cast_kernel"};  // 600 + 600 ns in forward, 200 in run
  findings[1].id = "gpu_idle";
  findings[2].id = "some_claim";
  findings[2].claim.activity_ms = {{2, 0.0002}};  // the gemm
  add_finding_sources(p, steps, findings);
  ASSERT_EQ(findings[0].sources.size(), 2u);
  EXPECT_EQ(findings[0].sources[0].file, "model.py");
  EXPECT_EQ(findings[0].sources[0].line, 40);
  EXPECT_EQ(findings[0].sources[0].function, "forward");
  EXPECT_NEAR(findings[0].sources[0].share, 1200.0 / 1400, 1e-9);
  EXPECT_EQ(findings[0].sources[1].line, 80);
  ASSERT_EQ(findings[1].sources.size(), 1u);  // where the host waits
  EXPECT_EQ(findings[1].sources[0].function, "run");
  ASSERT_EQ(findings[2].sources.size(), 1u);
  EXPECT_EQ(findings[2].sources[0].function, "project");
}

TEST(FindingSources, NoPythonFramesNoSources) {
  test::LaunchedProfile lp;
  lp.launch("cast_kernel", 200, 210, 300, 900);
  Profile& p = lp.sorted();
  std::vector<Finding> findings(1);
  findings[0].kernels = {"cast_kernel"};
  StepAssignment steps;
  steps.activity_step.assign(p.gpu.size(), -1);
  add_finding_sources(p, steps, findings);
  EXPECT_TRUE(findings[0].sources.empty());
}

// A real with_stack trace (H200, torch 2.11, Hugging Face generate of a 12-layer Llama called from gen_more.py's
// hf(); tests/data/README.md): the frames of torch and transformers are skipped, so every kernel comes from the
// user's one line, hf() calling generate.
TEST(FindingSources, ARealWithStackTraceNamesTheUsersLineNotTheLibrarys) {
  std::vector<Profile> profiles = load_profiles({test::data_path("h200_llama_generate_with_stack_excerpt.json.gz")});
  ASSERT_EQ(profiles.size(), 1u);
  const Profile& p = profiles[0];
  std::size_t frames = 0;
  for (const CpuRange& r : p.cpu) {
    if (r.kind != CpuRangeKind::kPython) continue;
    ++frames;
    EXPECT_EQ(std::string(p.name_of(r.name)).rfind("gen_more.py(", 0), 0u) << p.name_of(r.name);
  }
  EXPECT_EQ(frames, 2u);  // of 4866 python_function events: <module> and hf
  LaunchSources s = launch_sources(p);
  std::size_t kernels = 0, placed = 0;
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    if (p.gpu[i].kind != GpuActivityKind::kKernel) continue;
    ++kernels;
    if (s.of_activity[i] != kNoString) {
      ++placed;
      EXPECT_EQ(p.name_of(s.of_activity[i]), "gen_more.py(16): hf");
    }
  }
  EXPECT_GT(kernels, 1000u);
  EXPECT_EQ(placed, kernels);
  AnalyzeReport r = analyze_profiles(std::move(profiles), {});
  ASSERT_FALSE(r.findings.empty());
  for (const Finding& f : r.findings) {
    if (f.kernels.empty() && f.claim.activity_ms.empty() && f.id != "gpu_idle") continue;
    ASSERT_FALSE(f.sources.empty()) << f.id;
    EXPECT_EQ(f.sources[0].file, "gen_more.py") << f.id;
    EXPECT_EQ(f.sources[0].line, 16);
    EXPECT_EQ(f.sources[0].function, "hf");
    EXPECT_NEAR(f.sources[0].share, 1.0, 1e-9);
  }
}

}  // namespace
}  // namespace cuprobe
