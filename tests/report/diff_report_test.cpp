// diff's words and pairing: "1.86× slower (65.8 → 122 ms)", never "0.54x slower";
// one rank against one rank compares their findings whatever their rank ids.
#include "report/diff_report.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(DiffWords, LargerOverSmallerInWords) {
  EXPECT_EQ(slower_or_faster(65.8, 122), "1.85\u00d7 slower");
  EXPECT_EQ(slower_or_faster(1.2, 1.0), "1.2\u00d7 faster");
  EXPECT_EQ(slower_or_faster(1.0, 1.0), "same");
  EXPECT_EQ(slower_or_faster(1.0, 1.004), "same");
  EXPECT_EQ(slower_or_faster(1.0, 41), "41\u00d7 slower");
  EXPECT_EQ(slower_or_faster(0, 1), "");
}

AnalyzeReport one_rank(int id, const std::string& finding) {
  AnalyzeReport r;
  RankAnalysis a;
  a.rank = id;
  a.gpu_busy_ms = 1;
  a.window_ms = 2;
  Finding f;
  f.id = finding;
  f.rank = id;
  a.findings.push_back(f);
  r.findings = a.findings;
  r.ranks.push_back(a);
  return r;
}

TEST(DiffPairing, OneRankWithOneWhateverTheirIds) {
  DiffReport d = diff_reports(one_rank(3, "gpu_idle"), one_rank(1, "gpu_idle"));
  EXPECT_EQ(d.pairing, "one with one");
  EXPECT_EQ(d.pairing_note, "rank 3 (A) with rank 1 (B)");
  EXPECT_TRUE(d.appeared.empty());
  EXPECT_TRUE(d.disappeared.empty());
  ASSERT_EQ(d.kept.size(), 1u);
  std::string text = diff_text(d, "a", "b", 5);
  EXPECT_NE(text.find("ranks paired one with one: rank 3 (A) with rank 1 (B)"), std::string::npos) << text;
  EXPECT_EQ(diff_json(d, {"a"}, {"b"}, 5)["pairing"]["how"], "one with one");
}

TEST(DiffPairing, SeveralRanksByIdAndTheUnpairedSaid) {
  AnalyzeReport a = one_rank(0, "gpu_idle"), b = one_rank(0, "gpu_idle");
  AnalyzeReport a1 = one_rank(1, "launch_bound"), b2 = one_rank(2, "launch_bound");
  a.ranks.push_back(a1.ranks[0]);
  a.findings.push_back(a1.findings[0]);
  b.ranks.push_back(b2.ranks[0]);
  b.findings.push_back(b2.findings[0]);
  DiffReport d = diff_reports(a, b);
  EXPECT_EQ(d.pairing, "by rank id");
  EXPECT_EQ(d.pairing_note, "rank 1 only in A, rank 2 only in B");
  EXPECT_EQ(d.kept.size(), 1u);         // gpu_idle on rank 0
  EXPECT_EQ(d.appeared.size(), 1u);     // launch_bound on rank 2
  EXPECT_EQ(d.disappeared.size(), 1u);  // launch_bound on rank 1
}

}  // namespace
}  // namespace cuprobe
