// Runs recorded with `record --graphs whole`: one activity per graph launch, its kernels unseen.
#include <gtest/gtest.h>

#include "analysis/analyze.h"

namespace cuprobe {
namespace {

const Finding* find(const std::vector<Finding>& findings, const std::string& id) {
  for (const auto& f : findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

// 20 steps of 1 ms, each replaying one graph for 0.9 ms.
Profile graph_replay_run() {
  Profile p;
  p.source = "cuprobe-run";
  StringId step = p.strings.intern("step");
  StringId graph = p.strings.intern("CUDA graph 3 (whole launch)");
  for (int s = 0; s < 20; ++s) {
    TimeNs t0 = 1'000'000'000 + s * 1'000'000;
    p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kAnnotation, .name = step, .start = t0, .end = t0 + 1'000'000});
    GpuActivity g;
    g.kind = GpuActivityKind::kGraph;
    g.name = graph;
    g.start = t0 + 50'000;
    g.end = g.start + 900'000;
    g.device = 0;
    g.graph_id = 3;
    p.gpu.push_back(g);
  }
  return p;
}

TEST(WholeGraphRun, GraphLaunchesAreTheirOwnCategoryAndSaySoInAFinding) {
  std::vector<Profile> ps;
  ps.push_back(graph_replay_run());
  AnalyzeReport r = analyze_profiles(ps, {});
  ASSERT_EQ(r.ranks.size(), 1u);
  const RankAnalysis& a = r.ranks[0];
  ASSERT_EQ(a.categories.size(), 1u);
  EXPECT_EQ(category_name(a.categories[0].category), "cuda_graph");
  EXPECT_NEAR(a.categories[0].per_step_ms, 0.9, 1e-9);
  EXPECT_TRUE(a.unknown_kernels.empty());
  const Finding* whole = find(r.findings, "graphs_recorded_whole");
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(whole->severity, "low");
  EXPECT_NE(whole->title.find("20 launches, 0.90 ms each"), std::string::npos) << whole->title;
  // What runs inside is unknown, so no claim about tensor cores or short kernels.
  EXPECT_EQ(find(r.findings, "low_tensor_core_share"), nullptr);
  EXPECT_EQ(find(r.findings, "launch_bound"), nullptr);
}

}  // namespace
}  // namespace cuprobe
