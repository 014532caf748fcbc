// issue 25: the whole-pool cast followed by a gather, with each spelling of the gather as torch 2.11 records it
// (tests/data/make_gather_spellings.py): the gathered-only projection fires whatever sized the gather, and says
// what did.
#include "analysis/gather_sizing.h"

#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

AnalyzeReport analyze_spelling(const std::string& spelling) {
  return analyze_profiles(load_profiles({test::data_path("gather_spelling_" + spelling + ".json")}), {});
}

double number(const Finding& f, const std::string& key) {
  for (const auto& [k, v] : f.numbers) {
    if (k == key) return v;
  }
  return -1;
}

constexpr double kCastMsPerStep = 2 * 0.1728;  // two layers, each casting the whole 100000 x 576 pool
constexpr double kFraction = 4096.0 / 100000;

void expect_gathered_only(const std::string& spelling, const std::string& sized_by) {
  SCOPED_TRACE(spelling);
  AnalyzeReport r = analyze_spelling(spelling);
  ASSERT_FALSE(r.findings.empty());
  const Finding& top = r.findings.front();
  ASSERT_EQ(top.id, "copy_cast_dominant");
  EXPECT_EQ(top.severity, "high");
  double now = r.ranks.at(0).steps.median_ms;
  ASSERT_TRUE(top.what_if.step_ms_after_alone);
  EXPECT_NEAR(*top.what_if.step_ms_after_alone, now - kCastMsPerStep * (1 - kFraction), 1e-6);
  EXPECT_NEAR(number(top, "gathered_fraction"), kFraction, 1e-9);
  EXPECT_NE(top.what_if.description.find("the gather sized by " + sized_by), std::string::npos)
      << top.what_if.description;
  // The top finding owns its whole saving; what other findings claim adds up to at most the step.
  EXPECT_NEAR(top.gain_ms(), top.alone_gain_ms(), 1e-9);
  double sum = 0;
  for (const auto& f : r.findings) sum += f.gain_ms();
  EXPECT_LE(sum, now + 1e-9);
}

TEST(GatherSizing, IndexWithoutIndexShapesIsSizedByTheVectorizedGatherKernelsGrid) {
  expect_gathered_only("index_noshape", "gather kernel launch");
}

TEST(GatherSizing, AdvancedIndexingOnTwoDimsIsSizedByTheElementwiseIndexKernelsGrid) {
  expect_gathered_only("index_2d", "gather kernel launch");
}

TEST(GatherSizing, AGatherKernelOfUnknownShapeIsSizedByTheOperatorThatConsumesItsResult) {
  expect_gathered_only("consumer", "consumer's input shapes");
}

TEST(GatherSizing, IndexSelectRunsAsAGatherWithAnExpandedIndexReadByItsStorage) {
  expect_gathered_only("index_select", "index shapes");
  AnalyzeReport r = analyze_spelling("index_select");
  for (const auto& k : r.ranks.at(0).kernels) {
    if (k.name.find("vectorized_gather_kernel") == std::string::npos) continue;
    ASSERT_TRUE(k.work);
    // 4096 rows of 576 bf16 read and written, and 4096 int64 indices: 9.5 MB in 4 us, 2.4 TB/s, within the peak.
    EXPECT_DOUBLE_EQ(k.work->bytes, 6 * (4096.0 * 576 * 2 * 2 + 4096 * 8));
    EXPECT_EQ(k.work->beyond_peak, "");
  }
}

TEST(GatherSizing, TheLaunchGridGivesTheGatheredElements) {
  GpuActivity a;
  a.grid[0] = 4096;
  auto v = gathered_by_launch(
      "void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, "
      "long, long, long, bool)",
      a, {100000, 576});
  ASSERT_TRUE(v);
  EXPECT_DOUBLE_EQ(v->elements, 4096.0 * 576);
  EXPECT_DOUBLE_EQ(v->index_bytes, 4096.0 * 8);
  a.grid[0] = 10;
  auto e = gathered_by_launch(
      "void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<...> >"
      "(long, ...)",
      a, {100000, 576});
  ASSERT_TRUE(e);
  EXPECT_DOUBLE_EQ(e->elements, 10.0 * 128 * 4);  // within nt * vt - 1 above the true count
  a.grid[0] = 1 << 30;
  EXPECT_DOUBLE_EQ(gathered_by_launch("index_elementwise_kernel<128, 4>(long)", a, {100, 10})->elements, 1000);
  EXPECT_FALSE(gathered_by_launch("void my_kernel<128, 4>(long)", a, {100, 10}));
  EXPECT_FALSE(gathered_by_launch("index_elementwise_kernel<oops>(long)", a, {100, 10}));
}

// Nothing to size it from (a kernel of unknown shape, no consumer on the thread): no size, so no work.
TEST(GatherSizing, AGatherNothingSizesHasNoWork) {
  Profile p;
  OpArg self;
  self.type = "c10::BFloat16";
  self.dims = {1000, 64};
  OpArg none;
  none.type = "GenericList";
  p.op_inputs.push_back({{self, none}});
  CpuRange r;
  r.kind = CpuRangeKind::kOperator;
  r.name = p.strings.intern("aten::index");
  r.end = 10;
  r.tid = 1;
  r.inputs = 0;
  p.cpu.push_back(r);
  GpuActivity k;
  k.name = p.strings.intern("my_gather");
  k.grid[0] = 8;
  p.gpu.push_back(k);
  OpWork w;
  w.kind = WorkKind::kGather;
  w.dims = self.dims;
  w.element_bytes = 2;
  std::vector<std::size_t> kernels{0};
  EXPECT_FALSE(size_gather(p, w, 0, kernels));
  // Later operators: an mm with two tensors that could be the rows, then a view of [32, 64]: the view, which has
  // one, sizes it; without the view, the mm's largest (the weight: the trace cannot tell them apart).
  OpArg rows = self;
  rows.dims = {32, 64};
  OpArg weight = self;
  weight.dims = {64, 64};
  p.op_inputs.push_back({{weight, rows}});
  p.op_inputs.push_back({{rows}});
  for (int i = 0; i < 2; ++i) {
    r.name = p.strings.intern(i == 0 ? "aten::mm" : "aten::view");
    r.start = 20 + 20 * i;
    r.end = r.start + 10;
    r.inputs = 1 + i;
    p.cpu.push_back(r);
  }
  auto s = size_gather(p, w, 0, kernels);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->elements, 32.0 * 64);
  EXPECT_EQ(s->source, "consumer's input shapes");
  EXPECT_DOUBLE_EQ(sized_gather(w, *s).bytes, 32.0 * 64 * 2 * 2);
  p.cpu.pop_back();
  EXPECT_DOUBLE_EQ(size_gather(p, w, 0, kernels)->elements, 64.0 * 64);
}

}  // namespace
}  // namespace cuprobe
