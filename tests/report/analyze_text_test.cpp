// The analyze report's counter table and launch findings on small made-up run files.
#include "report/analyze_text.h"

#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "report/analyze_table_columns.h"

namespace cuprobe {
namespace {

constexpr TimeNs kStepNs = 1'000'000;  // 1 ms steps, annotated "step"

// `steps` steps of `kernels_per_step` kernels of `kernel_ns` each, packed at the start of
// the step; counter samples of `sample_ns` over the whole span (tensor 90 while a
// kernel runs, else 0, averaged by the sample as the hardware would).
Profile decode_like(int steps, int kernels_per_step, TimeNs kernel_ns, TimeNs sample_ns) {
  Profile p;
  p.source = "cuprobe-run";
  StringId step = p.strings.intern("step");
  StringId gemm = p.strings.intern("nvjet_sm90_tst_64x8_64x16_4x1_v_bz_NNT");
  for (int s = 0; s < steps; ++s) {
    TimeNs t0 = 1'000'000'000 + s * kStepNs;
    p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kAnnotation, .name = step, .start = t0, .end = t0 + kStepNs});
    for (int k = 0; k < kernels_per_step; ++k) {
      GpuActivity a;
      a.name = gemm;
      a.device = 0;
      a.start = t0 + k * kernel_ns;
      a.end = a.start + kernel_ns;
      p.gpu.push_back(a);
    }
  }
  double busy = static_cast<double>(kernels_per_step * kernel_ns) / kStepNs;
  StringId tensor = p.strings.intern("tensor_active_pct");
  StringId dram = p.strings.intern("dram_read_bytes_per_s");
  for (TimeNs t = 1'000'000'000; t < 1'000'000'000 + steps * kStepNs; t += sample_ns) {
    double filled = sample_ns >= kStepNs ? busy : 1.0;
    p.counters.push_back(
        CounterSample{.device = 0, .start = t, .end = t + sample_ns, .metric = tensor, .value = 90.0 * filled});
    p.counters.push_back(
        CounterSample{.device = 0, .start = t, .end = t + sample_ns, .metric = dram, .value = 8.1e11 * filled});
  }
  return p;
}

std::string report_of(Profile p) {
  std::vector<Profile> ps;
  ps.push_back(std::move(p));
  return analyze_text(analyze_profiles(ps, {}), 10);
}

TEST(AnalyzeTextCounters, SamplesMuchLongerThanKernelsShowNoPerKernelReadings) {
  // 100 kernels of 2 us per 1 ms step (20% busy), samples of 10 ms: a kernel fills 20% of a sample.
  std::string text = report_of(decode_like(50, 100, 2'000, 10'000'000));
  EXPECT_NE(text.find("counters (device-wide samples of 10.0 ms), first to last kernel: tensor_active 18.0%, "
                      "dram_read 162.0 GB/s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("per kernel: none shown"), std::string::npos) << text;
  EXPECT_NE(text.find("gemm 20%"), std::string::npos) << text;
  EXPECT_EQ(text.find("while it ran"), std::string::npos) << text;
}

TEST(AnalyzeTextCounters, KernelsThatFillTheirSamplesGetTheirReadings) {
  // One kernel filling each 1 ms step, samples of 100 us inside it.
  std::string text = report_of(decode_like(20, 1, 1'000'000, 100'000));
  EXPECT_NE(text.find("while it ran"), std::string::npos) << text;
  EXPECT_NE(text.find("810.0 GB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("90.0"), std::string::npos) << text;
  EXPECT_EQ(text.find("none shown"), std::string::npos) << text;
}

TEST(AnalyzeTextCounters, CountersWithoutKernelsStillGiveTheRecordingsMeans) {
  Profile p = decode_like(3, 1, 1'000, 100'000);
  p.gpu.clear();
  std::string text = report_of(std::move(p));
  EXPECT_NE(text.find("whole recording (no kernels traced): tensor_active 90.0%, dram_read 810.0 GB/s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(most: none)"), std::string::npos) << text;
}

TEST(AnalyzeTextCategories, ACategoryRunningOnlyOutsideStepsHasNoPerStepTime) {
  Profile p = decode_like(5, 10, 2'000, 100'000);
  GpuActivity sampler;
  sampler.name = p.strings.intern("distribution_elementwise_grid_stride_kernel<float>");
  sampler.device = 0;
  sampler.start = 900'000'000;  // before the first step
  sampler.end = sampler.start + 17'000;
  p.gpu.push_back(sampler);
  std::string text = report_of(std::move(p));
  // It ran beside a gemm: 17 of the 117 us summed (15%), and the text says what the shares are of.
  EXPECT_NE(text.find("  sampling  17.0 us    15%         -      1"), std::string::npos) << text;
  EXPECT_NE(text.find("shares: of the summed time of all GPU activities"), std::string::npos) << text;
}

// The line of `text` starting with "  <first>", and whether `headers` (the '>' left out) are in it in order.
bool header_line_has(const std::string& text, const std::vector<std::string>& headers) {
  std::size_t at = text.find("\n  " + headers.front().substr(headers.front().starts_with('>') ? 1 : 0));
  if (at == std::string::npos) return false;
  std::string line = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  std::size_t from = 0;
  for (const std::string& h : headers) {
    from = line.find(h.starts_with('>') ? h.substr(1) : h, from);
    if (from == std::string::npos) return false;
  }
  return true;
}

TEST(AnalyzeTextTables, CategoryAndKernelHeadersAreTheirColumnListsTextHeaders) {
  std::string text = report_of(decode_like(5, 10, 2'000, 100'000));
  EXPECT_TRUE(header_line_has(text, text_headers(category_columns()))) << text;
  EXPECT_TRUE(header_line_has(text, text_headers(kernel_columns()))) << text;
  EXPECT_NE(text.find("  gemm      0.10 ms   100%   20.0 us     50\n"), std::string::npos) << text;
}

TEST(AnalyzeTextFindings, LaunchBoundWithoutRuntimeCallsDoesNotInventALaunchTime) {
  std::string text = report_of(decode_like(50, 100, 2'000, 10'000'000));
  EXPECT_NE(text.find("launch_bound"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.0 us it takes"), std::string::npos) << text;
  EXPECT_NE(text.find("too short to hide their launches (the trace has no CUDA runtime calls"), std::string::npos)
      << text;
  EXPECT_NE(text.find("printing tensors; `cuprobe record --api` counts them)"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.0 per step here"), std::string::npos) << text;
  EXPECT_NE(text.find("5000 GPU activities have no launch call (the trace has no CUDA runtime calls"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace cuprobe

namespace cuprobe {
namespace {

// `record --graphs whole` of a graph decode: steps from the graph launches, the
// step time on the GPU clock, warm-up left out, and the graph named as a graph.
TEST(AnalyzeTextSteps, WholeGraphLaunchesSayWhereStepsAndTimesComeFrom) {
  Profile p;
  p.source = "cuprobe-run";
  StringId warm = p.strings.intern("void at::native::warmup_kernel<float>(float*)");
  StringId graph = p.strings.intern("CUDA graph 3 (whole launch)");
  for (int k = 0; k < 7; ++k) {
    GpuActivity a;
    a.name = warm;
    a.start = 1'000'000 + k * 10'000;
    a.end = a.start + 5'000;
    p.gpu.push_back(a);
  }
  for (int r = 0; r < 10; ++r) {
    GpuActivity g;
    g.kind = GpuActivityKind::kGraph;
    g.name = graph;
    g.graph_id = 3;
    g.start = 5'000'000 + r * 1'280'000;
    g.end = g.start + 1'230'000;
    p.gpu.push_back(g);
  }
  std::vector<Profile> ps;
  ps.push_back(std::move(p));
  std::string text = analyze_text(analyze_profiles(ps, {}), 10);
  EXPECT_NE(text.find("steps: 10 (graph launch: one CUDA graph launch per step)"), std::string::npos) << text;
  EXPECT_NE(text.find("step time 1.28 ms median, 1.28 ms p90 (GPU clock: a step's first GPU work to the next step's)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("GPU busy 1.23 ms median"), std::string::npos) << text;
  EXPECT_EQ(text.find("| CPU "), std::string::npos) << text;  // no CPU times in this run
  EXPECT_NE(text.find("7 GPU activities before the first step (warm-up, capture) are in no step"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  CUDA graph 3 (whole launch) "), std::string::npos) << text;
  EXPECT_NE(text.find("tensor cores 0% of GPU time outside whole CUDA graph launches (median step; 0% over the "
                      "window)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("gpu_idle"), std::string::npos) << text;
}

}  // namespace
}  // namespace cuprobe
