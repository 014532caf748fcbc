// Steps of CUDA-graph decode loops: whole launches, node-by-node replays (run
// files' graph ids, Kineto's cudaGraphLaunch correlation), piecewise graphs.
#include "analysis/step_detection_graphs.h"

#include <gtest/gtest.h>

#include "analysis/analyze.h"

namespace cuprobe {
namespace {

enum class Seen { kWhole, kNodesWithGraphIds, kNodesByLaunchCall };

constexpr int kWarmup = 40;
constexpr int kReplays = 20;
constexpr int kLayers = 24, kPerLayer = 15;
constexpr TimeNs kKernelNs = 3'000;
constexpr TimeNs kPeriodNs = 1'200'000;
constexpr TimeNs kReplayNs = kLayers * kPerLayer * kKernelNs;  // 1.08 ms

GpuActivity activity(GpuActivityKind kind, StringId name, TimeNs start, TimeNs end, std::int64_t corr) {
  GpuActivity a;
  a.kind = kind;
  a.name = name;
  a.start = start;
  a.end = end;
  a.device = 0;
  a.correlation = corr;
  return a;
}

// Eager warm-up (40 kernels), then 20 replays of a 24-layer step of 15 kernels,
// each followed by an eager argmax and the token copied back.
Profile graph_decode(Seen seen) {
  Profile p;
  TimeNs t = 1'000'000;
  for (int k = 0; k < kWarmup; ++k, t += 10'000) {
    StringId name = p.strings.intern("warm_" + std::to_string(k % 5));
    p.gpu.push_back(activity(GpuActivityKind::kKernel, name, t, t + kKernelNs, k + 1));
  }
  StringId launch = p.strings.intern("cudaGraphLaunch");
  StringId argmax = p.strings.intern("argmax_kernel");
  StringId copy = p.strings.intern("Memcpy DtoH");
  StringId whole = p.strings.intern("CUDA graph 5 (whole launch)");
  TimeNs first = t + 5'000'000;
  for (int r = 0; r < kReplays; ++r) {
    TimeNs r0 = first + r * kPeriodNs;
    std::int64_t corr = 1000 + 3 * r;
    if (seen == Seen::kNodesByLaunchCall) {
      p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kRuntime,
                               .name = launch,
                               .start = r0 - 20'000,
                               .end = r0 - 10'000,
                               .pid = 1,
                               .tid = 1,
                               .correlation = corr});
    }
    if (seen == Seen::kWhole) {
      GpuActivity g = activity(GpuActivityKind::kGraph, whole, r0, r0 + kReplayNs, corr);
      g.graph_id = 5;
      p.gpu.push_back(g);
    } else {
      for (int k = 0; k < kLayers * kPerLayer; ++k) {
        StringId name = p.strings.intern("layer_kernel_" + std::to_string(k % kPerLayer));
        GpuActivity a = activity(GpuActivityKind::kKernel, name, r0 + k * kKernelNs, r0 + (k + 1) * kKernelNs, corr);
        if (seen == Seen::kNodesWithGraphIds) a.graph_id = 5;
        p.gpu.push_back(a);
      }
    }
    TimeNs after = r0 + kReplayNs + 10'000;
    p.gpu.push_back(activity(GpuActivityKind::kKernel, argmax, after, after + 5'000, corr + 1));
    GpuActivity c = activity(GpuActivityKind::kMemcpy, copy, after + 10'000, after + 12'000, corr + 2);
    c.memcpy_kind = MemcpyKind::kDtoH;
    c.bytes = 8;
    p.gpu.push_back(c);
  }
  p.sort_by_time();
  return p;
}

class GraphDecodeSteps : public ::testing::TestWithParam<Seen> {};

TEST_P(GraphDecodeSteps, EachReplayIsOneStepAndTheWarmupIsInNone) {
  Profile p = graph_decode(GetParam());
  StepAssignment a = detect_steps(p, {});
  EXPECT_EQ(a.summary.source, GetParam() == Seen::kWhole ? "graph launch" : "graph replay");
  EXPECT_EQ(a.summary.replays_per_step, 1);
  ASSERT_EQ(a.summary.steps.size(), static_cast<std::size_t>(kReplays));
  EXPECT_EQ(a.summary.before_first_step, kWarmup);
  std::int64_t per_replay = GetParam() == Seen::kWhole ? 1 : kLayers * kPerLayer;
  for (const Step& s : a.summary.steps) EXPECT_EQ(s.activities, per_replay + 2);  // + argmax, copy
  EXPECT_NEAR(a.summary.median_ms, kPeriodNs / 1e6, 1e-9);
  EXPECT_NEAR(a.summary.gpu_median_ms, (kReplayNs + 5'000 + 2'000) / 1e6, 1e-9);
  EXPECT_EQ(a.summary.cpu_from, GetParam() == Seen::kNodesByLaunchCall ? "launch calls" : "");
  for (std::size_t i = 0; i < kWarmup; ++i) EXPECT_EQ(a.activity_step[i], -1);
}

TEST_P(GraphDecodeSteps, NoFalseIdleFinding) {
  std::vector<Profile> ps;
  ps.push_back(graph_decode(GetParam()));
  AnalyzeReport r = analyze_profiles(ps, {});
  for (const auto& f : r.findings) {
    EXPECT_NE(f.id, "gpu_idle") << f.title;
    EXPECT_NE(f.id, "launch_bound") << f.title;
  }
}

// Traced node by node, a replay's kernels run with gaps between them (the graph's
// node-to-node latency, widened by the tracing): short kernels with short gaps, which
// in eager work would mean launch-bound. The host launched one graph, not them.
TEST(GraphDecodeSteps, GapsBetweenGraphNodesAreNotLaunchBound) {
  for (Seen seen : {Seen::kNodesWithGraphIds, Seen::kNodesByLaunchCall}) {
    std::vector<Profile> ps;
    ps.push_back(graph_decode(seen));
    for (GpuActivity& a : ps[0].gpu) {
      if (ps[0].name_of(a.name).rfind("layer_kernel_", 0) == 0) a.end = a.start + kKernelNs / 2;
    }
    AnalyzeReport r = analyze_profiles(ps, {});
    for (const auto& f : r.findings) EXPECT_NE(f.id, "launch_bound") << f.title;
  }
}

INSTANTIATE_TEST_SUITE_P(Seen, GraphDecodeSteps,
                         ::testing::Values(Seen::kWhole, Seen::kNodesWithGraphIds, Seen::kNodesByLaunchCall),
                         [](const ::testing::TestParamInfo<Seen>& p) {
                           return p.param == Seen::kWhole               ? std::string("Whole")
                                  : p.param == Seen::kNodesWithGraphIds ? std::string("NodesWithGraphIds")
                                                                        : std::string("NodesByLaunchCall");
                         });

// vLLM-style piecewise capture: two graphs per step with eager attention
// between; the step starts at the graph after the longest idle.
TEST(GraphDecodeSteps, PiecewiseGraphsMakeOneStep) {
  Profile p;
  StringId attn = p.strings.intern("attention");
  StringId piece = p.strings.intern("piece_kernel");
  std::int64_t corr = 1;
  for (int s = 0; s < 10; ++s) {
    TimeNs t = 1'000'000 + s * 1'000'000;  // 300 us idle before each step's first piece
    for (int g = 0; g < 2; ++g) {
      TimeNs g0 = t + g * 350'000;
      for (int k = 0; k < 4; ++k) {
        GpuActivity a = activity(GpuActivityKind::kKernel, piece, g0 + k * 50'000, g0 + (k + 1) * 50'000, corr);
        a.graph_id = 10 + g;
        p.gpu.push_back(a);
      }
      ++corr;
      p.gpu.push_back(activity(GpuActivityKind::kKernel, attn, g0 + 200'000, g0 + 340'000, corr++));
    }
  }
  p.sort_by_time();
  StepAssignment a = detect_steps(p, {});
  EXPECT_EQ(a.summary.source, "graph replay");
  EXPECT_EQ(a.summary.replays_per_step, 2);
  ASSERT_EQ(a.summary.steps.size(), 10u);
  EXPECT_EQ(a.summary.steps[0].gpu_start, 1'000'000);
  EXPECT_EQ(a.summary.steps[0].activities, 10);
  EXPECT_NEAR(a.summary.median_ms, 1.0, 1e-9);
  EXPECT_EQ(a.summary.before_first_step, 0);
}

TEST(GraphDecodeSteps, TooFewReplaysLeaveTheOtherRules) {
  Profile p = graph_decode(Seen::kNodesWithGraphIds);
  StepAssignment a;
  a.activity_step.assign(p.gpu.size(), -1);
  EXPECT_TRUE(assign_by_graph_replays(p, a));
  Profile small;
  StringId k = small.strings.intern("k");
  for (int r = 0; r < 2; ++r) {
    GpuActivity g = activity(GpuActivityKind::kKernel, k, r * 1000, r * 1000 + 10, r);
    g.graph_id = 1;
    small.gpu.push_back(g);
  }
  StepAssignment b;
  b.activity_step.assign(small.gpu.size(), -1);
  EXPECT_FALSE(assign_by_graph_replays(small, b));
  EXPECT_TRUE(b.summary.steps.empty());
}

// An eager decode loop that replays one small graph per step: the graphs carry
// too little of the GPU time to define the steps, so periodicity does.
TEST(GraphDecodeSteps, SmallGraphsInsideEagerStepsLeaveTheStepsToPeriodicity) {
  Profile p;
  std::int64_t corr = 1;
  StringId tiny = p.strings.intern("graphed_sampler");
  for (int s = 0; s < 12; ++s) {
    TimeNs t = 1'000'000 + s * 1'000'000;
    for (int k = 0; k < 20; ++k, t += 20'000) {
      StringId name = p.strings.intern("eager_" + std::to_string(k));
      p.gpu.push_back(activity(GpuActivityKind::kKernel, name, t, t + 15'000, corr++));
    }
    GpuActivity g = activity(GpuActivityKind::kKernel, tiny, t, t + 2'000, corr++);
    g.graph_id = 9;
    p.gpu.push_back(g);
  }
  p.sort_by_time();
  StepAssignment a = detect_steps(p, {});
  EXPECT_EQ(a.summary.source, "periodicity");
  EXPECT_EQ(a.summary.period_kernels, 21);
}

}  // namespace
}  // namespace cuprobe
