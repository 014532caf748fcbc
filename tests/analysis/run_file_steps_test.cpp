// issue 34 on `cuprobe record` run files of real programs (bench/gpu/zoo, H200, torch 2.11; tests/data/README.md):
// programs that synchronize after each step and read nothing back. Their steps are the program's iterations, not
// its layers, and without shapes the what-ifs project from the DRAM bytes record measured.
#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

AnalyzeReport analyze_file(const std::string& name) {
  return analyze_profiles(load_profiles({test::data_path(name)}), {});
}

// 8 layers of 8 kernels, alike: the names repeat every layer (the old answer: 116 steps of 8 kernels, 0.9 ms).
// Truth (CUDA events, no profiler): bug 6.99 ms, fixed 1.35 ms (host-bound, 49% spread over 3 processes).
TEST(RunFileSteps, AlikeLayersGiveTheIterationNotTheLayer) {
  AnalyzeReport bug = analyze_file("zoo/traces/pool_cast_whole/bug/record.db.gz");
  const StepSummary& s = bug.ranks.at(0).steps;
  EXPECT_EQ(s.source, "periodicity");
  EXPECT_EQ(s.period_kernels, 64);
  EXPECT_EQ(s.marker, "period of 64 kernels, each step from the GPU idle gap the host leaves");
  EXPECT_GE(s.steps.size(), 12u);
  EXPECT_NEAR(s.median_ms, 6.99, 0.35);

  // The fixed program is host-bound: the host's gaps inside the step (6-26 us) are nearly as long as some of its
  // synchronize gaps, and a few of the latter are missing.
  AnalyzeReport fixed = analyze_file("zoo/traces/pool_cast_whole/fixed/record.db.gz");
  const StepSummary& f = fixed.ranks.at(0).steps;
  EXPECT_EQ(f.period_kernels, 64);
  EXPECT_GE(f.steps.size(), 12u);
  EXPECT_GT(f.median_ms, 0.9);
  EXPECT_LT(f.median_ms, 1.5);

  // 4 MLP blocks with embedding and head: the names alone give the step. Truth 5.76 ms.
  AnalyzeReport weights = analyze_file("zoo/traces/weight_cast_every_forward/bug/record.db.gz");
  EXPECT_EQ(weights.ranks.at(0).steps.period_kernels, 53);
  EXPECT_NEAR(weights.ranks.at(0).steps.median_ms, 5.76, 0.4);
}

// The whole pool cast each layer, recorded without shapes: the cast's bytes are those record's counters measured,
// and the what-if projects the cast at copy bandwidth from them. True saving of the fix (gather, then cast) 80.6%.
TEST(RunFileSteps, ARunFileProjectsFromTheMeasuredDramBytes) {
  AnalyzeReport r = analyze_file("zoo/traces/pool_cast_whole/bug/record.db.gz");
  const Finding& top = r.findings.at(0);
  ASSERT_EQ(top.id, "copy_cast_dominant");
  EXPECT_NE(top.title.find("(the DRAM bytes record measured)"), std::string::npos) << top.title;
  EXPECT_NE(top.title.find("by operation: dtype cast or copy"), std::string::npos) << top.title;
  ASSERT_TRUE(top.what_if.step_ms_after_alone);
  double saving = 1 - *top.what_if.step_ms_after_alone / top.what_if.step_ms_now;
  EXPECT_NEAR(saving, 0.806, 0.806 * 0.15);

  // Where the counters cannot isolate the copies, the what-if says what a run file would need, not record_shapes.
  AnalyzeReport fixed = analyze_file("zoo/traces/pool_cast_whole/fixed/record.db.gz");
  for (const Finding& f : fixed.findings) {
    EXPECT_EQ(f.what_if.description.find("record_shapes"), std::string::npos) << f.id;
    if (f.id == "copy_cast_dominant") {
      EXPECT_NE(f.what_if.description.find("`cuprobe record --interval 1ms`"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace cuprobe
