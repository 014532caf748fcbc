// `analyze --json` written rank by rank (issue 37): write_analyze_json is the whole document's dump(1), byte
// for byte, with no rank, one, two (the tp2 pair, with cross_rank) and a warning that is not UTF-8.
#include <gtest/gtest.h>

#include <sstream>

#include "analysis/analyze.h"
#include "import/load_profiles.h"
#include "report/analyze_json.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

void expect_streamed_equals_dumped(const AnalyzeReport& report, std::size_t top_kernels) {
  std::ostringstream os;
  write_analyze_json(os, report, top_kernels);
  EXPECT_EQ(os.str(), analyze_json(report, top_kernels).dump(1, ' ', false, kReplaceInvalidUtf8));
}

AnalyzeReport analyze_files(const std::vector<std::string>& names) {
  std::vector<std::string> paths;
  for (const auto& n : names) paths.push_back(test::data_path(n));
  return analyze_profiles(load_profiles(paths), {});
}

TEST(AnalyzeJsonStream, NoRankIsTheDumpedDocument) {
  AnalyzeReport report;
  expect_streamed_equals_dumped(report, SIZE_MAX);
  report.warnings.push_back("bad \xff byte");
  expect_streamed_equals_dumped(report, SIZE_MAX);
}

TEST(AnalyzeJsonStream, OneRankIsTheDumpedDocument) {
  AnalyzeReport report = analyze_files({"format_pipeline_two_gpus.json"});
  ASSERT_EQ(report.ranks.size(), 1u);
  expect_streamed_equals_dumped(report, SIZE_MAX);
  expect_streamed_equals_dumped(report, 3);
}

TEST(AnalyzeJsonStream, TwoRanksWithTheCrossRankPartAreTheDumpedDocument) {
  AnalyzeReport report = analyze_files({"tp2_mlp_decode_rank0.json.gz", "tp2_mlp_decode_rank1.json.gz"});
  ASSERT_EQ(report.ranks.size(), 2u);
  ASSERT_TRUE(report.cross_rank.has_value());
  report.warnings.push_back("a file name \xc3\x28 that is not UTF-8");
  expect_streamed_equals_dumped(report, SIZE_MAX);
}

}  // namespace
}  // namespace cuprobe
