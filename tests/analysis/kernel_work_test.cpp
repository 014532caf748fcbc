// Work per kernel and the what-ifs on tests/data/fp8_cast_shapes.json: the FP8
// KV-pool cast recorded with record_shapes (make_fp8_cast_shapes.py says what is in it).
#include "analysis/kernel_work.h"

#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

AnalyzeReport analyze_fixture(const AnalyzeOptions& options = {}) {
  return analyze_profiles(load_profiles({test::data_path("fp8_cast_shapes.json")}), options);
}

const KernelRow* kernel(const RankAnalysis& a, std::string_view part) {
  for (const auto& k : a.kernels) {
    if (k.name.find(part) != std::string::npos) return &k;
  }
  return nullptr;
}

constexpr double kCastBytes = 496000.0 * 576 * 3;  // fp8 read + bf16 written: 857 MB

TEST(KernelWork, TheCastKernelGetsItsOperatorsBytesAndBandwidth) {
  AnalyzeReport r = analyze_fixture();
  const RankAnalysis& a = r.ranks.at(0);
  EXPECT_TRUE(a.op_shapes);
  ASSERT_TRUE(a.peaks);
  EXPECT_EQ(a.peaks->name, "H200 SXM");
  const KernelRow* cast = kernel(a, "direct_copy_kernel_cuda");
  ASSERT_TRUE(cast);
  ASSERT_TRUE(cast->work);
  EXPECT_EQ(cast->work->calls, 12);
  EXPECT_DOUBLE_EQ(cast->work->bytes, 12 * kCastBytes);
  EXPECT_EQ(cast->work->flops, 0);
  EXPECT_NEAR(cast->work->achieved_tbps, 1.0, 1e-6);
  ASSERT_TRUE(cast->work->peak_share);
  EXPECT_NEAR(*cast->work->peak_share, 1.0 / 4.8, 1e-6);
  EXPECT_EQ(cast->work->bound, "memory");
  EXPECT_EQ(cast->work->source, "shapes");
}

TEST(KernelWork, TheGemmGetsTwoMKNAtTheBf16Rate) {
  const RankAnalysis a = analyze_fixture().ranks.at(0);
  const KernelRow* gemm = kernel(a, "nvjet_sm90");
  ASSERT_TRUE(gemm && gemm->work);
  EXPECT_DOUBLE_EQ(gemm->work->flops, 12 * 2.0 * 8 * 576 * 4096);
  EXPECT_EQ(gemm->work->dtype, "bf16");
  // 4.8 MB (mostly the weight) in 8 us: 0.6 TB/s, 12% of the memory roof; its FLOPs are 0.03% of the bf16 roof.
  EXPECT_EQ(gemm->work->bound, "memory");
  ASSERT_TRUE(gemm->work->peak_share);
  EXPECT_NEAR(*gemm->work->peak_share, 2.0 * (8 * 576 + 576 * 4096 + 8 * 4096) / 8e-6 / 4.8e12, 1e-9);
}

TEST(KernelWork, AMalformedShapeIsCountedNotFatal) {
  const RankAnalysis a = analyze_fixture().ranks.at(0);
  EXPECT_EQ(a.import_stats.count(ImportStat::kOpShapeMalformed), 1);
}

TEST(KernelWork, CopyCastFindingStatesBytesBandwidthAndBothFixes) {
  AnalyzeReport r = analyze_fixture();
  ASSERT_FALSE(r.findings.empty());
  const Finding& f = r.findings.front();
  ASSERT_EQ(f.id, "copy_cast_dominant");
  EXPECT_NE(f.title.find("casts 857 MB per layer per step"), std::string::npos) << f.title;
  EXPECT_NE(f.title.find("at 1.00 TB/s, 21% of the memory bandwidth peak"), std::string::npos) << f.title;
  const RankAnalysis& a = r.ranks.at(0);
  double now = a.steps.median_ms;
  EXPECT_DOUBLE_EQ(f.what_if.step_ms_now, now);
  ASSERT_TRUE(f.what_if.step_ms_after);
  // Only the gathered 4096 of 496000 rows cast: the cast time shrinks to 0.83% of itself.
  double cast_ms = 4 * 0.857088;
  EXPECT_NEAR(*f.what_if.step_ms_after, now - cast_ms * (1 - 4096.0 / 496000), 1e-6);
  EXPECT_NE(f.what_if.description.find("only the gathered entries"), std::string::npos);
  double at_copy = 0;
  for (const auto& [k, v] : f.numbers) {
    if (k == "step_ms_after_copy_bandwidth") at_copy = v;
  }
  // At copy bandwidth: all copies with known bytes (the casts and the gathers) at 88% of 4.8 TB/s.
  double gather_ms = 4 * 0.010, gather_bytes = 4096.0 * 576 * 2 * 2 + 4096 * 8;
  EXPECT_NEAR(at_copy, now - cast_ms - gather_ms + 4 * (kCastBytes + gather_bytes) / (4.8e12 * 0.88) * 1e3, 1e-6);
}

TEST(KernelWork, FindingsAreRankedByTheirGain) {
  AnalyzeReport r = analyze_fixture();
  for (std::size_t i = 1; i < r.findings.size(); ++i) EXPECT_GE(r.findings[i - 1].gain_ms(), r.findings[i].gain_ms());
  for (const auto& f : r.findings) EXPECT_FALSE(f.what_if.description.empty()) << f.id;
}

TEST(KernelWork, WithoutTheDevicesPeaksBytesStayButNoShareOfPeak) {
  AnalyzeOptions options;
  options.peak_overrides = parse_peak_overrides("bw=2");
  const RankAnalysis a = analyze_fixture(options).ranks.at(0);
  const KernelRow* cast = kernel(a, "direct_copy_kernel_cuda");
  ASSERT_TRUE(cast && cast->work && cast->work->peak_share);
  EXPECT_NEAR(*cast->work->peak_share, 0.5, 1e-6);  // --peak bw=2 replaced the table's 4.8
}

TEST(KernelWork, ATraceWithoutShapesSaysWhyThereIsNoProjection) {
  AnalyzeReport r = analyze_profiles(load_profiles({test::data_path("mla_fp8pool_fullcast_small.json.gz")}), {});
  const Finding& f = r.findings.at(0);
  ASSERT_EQ(f.id, "copy_cast_dominant");
  EXPECT_FALSE(f.what_if.step_ms_after);
  EXPECT_NE(f.what_if.description.find("record_shapes=True"), std::string::npos);
  EXPECT_GT(f.gain_ms(), 0);  // ranked by the step time it explains
}

TEST(KernelWork, MemcpyActivitiesCarryTheirOwnBytes) {
  Profile p;
  GpuActivity m;
  m.kind = GpuActivityKind::kMemcpy;
  m.name = p.strings.intern("Memcpy HtoD");
  m.start = 0;
  m.end = 1000;  // 1 us
  m.bytes = 1000000;
  p.gpu.push_back(m);
  m.memcpy_kind = MemcpyKind::kHtoD;
  p.gpu.push_back(m);
  m.memcpy_kind = MemcpyKind::kDtoD;
  p.gpu.push_back(m);
  WorkAttribution w = attribute_work(p);
  ASSERT_TRUE(w.activity.at(0).known);
  EXPECT_DOUBLE_EQ(w.activity[0].bytes, 1e6);
  EXPECT_EQ(w.activity[0].kind, WorkKind::kTransfer);
  EXPECT_DOUBLE_EQ(w.activity.at(1).bytes, 1e6);
  EXPECT_DOUBLE_EQ(w.activity.at(2).bytes, 2e6);  // device to device: read and written
}

TEST(KernelWork, AnOperatorsWorkIsSplitBetweenItsKernelsByTime) {
  Profile p;
  auto op = p.strings.intern("aten::mm");
  OpInputs in;
  OpArg a, b;
  a.type = b.type = "c10::BFloat16";
  a.dims = {64, 64};
  b.dims = {64, 64};
  in.args = {a, b};
  p.op_inputs.push_back(in);
  CpuRange r;
  r.kind = CpuRangeKind::kOperator;
  r.name = op;
  r.start = 0;
  r.end = 100;
  r.tid = 1;
  r.inputs = 0;
  p.cpu.push_back(r);
  for (int i = 0; i < 2; ++i) {
    CpuRange l;
    l.kind = CpuRangeKind::kRuntime;
    l.name = p.strings.intern("cudaLaunchKernel");
    l.start = 10 + 20 * i;
    l.end = 15 + 20 * i;
    l.tid = 1;
    l.correlation = 7 + i;
    p.cpu.push_back(l);
    GpuActivity k;
    k.name = p.strings.intern(i == 0 ? "gemm_main" : "splitKreduce");
    k.start = 200 + 1000 * i;
    k.end = k.start + (i == 0 ? 900 : 100);
    k.correlation = 7 + i;
    p.gpu.push_back(k);
  }
  WorkAttribution w = attribute_work(p);
  double flops = 2.0 * 64 * 64 * 64;
  EXPECT_DOUBLE_EQ(w.activity.at(0).flops, flops * 0.9);
  EXPECT_DOUBLE_EQ(w.activity.at(1).flops, flops * 0.1);
}

// issue 25, physics as a check: an operator whose counted bytes would take the H200 longer than its kernel ran
// (here 6.4 GB in 0.1 ms, 64 TB/s) is flagged, warned of, and left out of the what-ifs; the other kernel stays.
TEST(KernelWork, WorkBeyondTheDevicesPeakIsFlaggedAndLeftOutOfTheWhatIfs) {
  Profile p;
  p.devices.push_back({0, "NVIDIA H200", 132, 9, 0, 0});
  OpInputs huge, small;
  OpArg a;
  a.type = "c10::BFloat16";
  a.dims = {1 << 20, 1024};
  huge.args = {a, a};
  a.dims = {1024, 1024};
  small.args = {a, a};
  p.op_inputs = {huge, small};
  for (int i = 0; i < 2; ++i) {
    CpuRange r;
    r.kind = CpuRangeKind::kOperator;
    r.name = p.strings.intern("aten::add");
    r.start = 100 * i;
    r.end = r.start + 50;
    r.tid = 1;
    r.inputs = i;
    p.cpu.push_back(r);
    CpuRange l;
    l.kind = CpuRangeKind::kRuntime;
    l.name = p.strings.intern("cudaLaunchKernel");
    l.start = r.start + 10;
    l.end = r.start + 20;
    l.tid = 1;
    l.correlation = 7 + i;
    p.cpu.push_back(l);
    GpuActivity k;
    k.name = p.strings.intern(i == 0 ? "add_kernel_huge" : "add_kernel_small");
    k.start = 1000 + 200'000 * i;
    k.end = k.start + 100'000;  // 0.1 ms
    k.correlation = 7 + i;
    k.device = 0;
    p.gpu.push_back(k);
  }
  std::vector<Profile> profiles;
  profiles.push_back(std::move(p));
  AnalyzeReport r = analyze_profiles(profiles, {});
  const RankAnalysis& ra = r.ranks.at(0);
  const KernelRow* huge_row = kernel(ra, "add_kernel_huge");
  ASSERT_TRUE(huge_row && huge_row->work);
  EXPECT_NE(huge_row->work->beyond_peak.find("x the memory bandwidth peak"), std::string::npos)
      << huge_row->work->beyond_peak;
  const KernelRow* small_row = kernel(ra, "add_kernel_small");
  ASSERT_TRUE(small_row && small_row->work);
  EXPECT_EQ(small_row->work->beyond_peak, "");
  bool warned = false;
  for (const auto& w : ra.warnings) warned |= w.find("add_kernel_huge") != std::string::npos;
  EXPECT_TRUE(warned);
  const Finding* roof = nullptr;
  for (const auto& f : r.findings) {
    if (f.id == "low_tensor_core_share") roof = &f;
  }
  ASSERT_TRUE(roof);
  ASSERT_TRUE(roof->what_if.step_ms_after_alone);
  // Only the small add at its roofline (6 MB at 4.8 TB/s: 1.3 us of its 100 us); the huge one left out.
  double small_roof_ms = 3.0 * 1024 * 1024 * 2 / 4.8e12 * 1e3;
  EXPECT_NEAR(roof->what_if.step_ms_now - *roof->what_if.step_ms_after_alone, 0.1 - small_roof_ms, 1e-9);
  EXPECT_NE(roof->what_if.description.find("1 kernel calls left out"), std::string::npos) << roof->what_if.description;
}

// Regression: a host copy's bytes were held against the GPU memory's peak, and a trace whose
// only known work was memcpy records got a low_tensor_core_share projection of no change.
TEST(KernelWork, HostCopiesGetNoShareOfTheGpuMemoryPeakNorARooflineProjection) {
  AnalyzeReport r = analyze_profiles(load_profiles({test::data_path("rocm_training_fallback_small.json")}), {});
  const RankAnalysis& a = r.ranks.at(0);
  ASSERT_TRUE(a.peaks);  // AMD Instinct MI300X
  const KernelRow* copy = kernel(a, "Memcpy");
  ASSERT_TRUE(copy && copy->work);
  EXPECT_GT(copy->work->bytes, 0);
  EXPECT_FALSE(copy->work->peak_share);
  EXPECT_EQ(copy->work->bound, "");
  for (const auto& f : r.findings) {
    if (f.id == "low_tensor_core_share") {
      EXPECT_FALSE(f.what_if.step_ms_after) << f.what_if.description;
    }
  }
}

}  // namespace
}  // namespace cuprobe
