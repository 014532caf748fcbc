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

// HTA's communication overlap of a rank as analyze leaves it: diff takes it as it is, never recomputes it.
HtaCommOverlap overlap(double communication_ms, double both_ms) {
  HtaCommOverlap o;
  o.communication_kernels = 4;
  o.communication_ms = communication_ms;
  o.computation_ms = 10;
  o.overlap_ms = both_ms;
  o.comp_comm_overlap_pctg = 100 * both_ms / communication_ms;
  return o;
}

TEST(DiffHtaOverlap, PairedRanksWithAnalyzesFiguresInTextJsonAndCsv) {
  AnalyzeReport a = one_rank(0, "gpu_idle"), b = one_rank(0, "gpu_idle");
  a.ranks.push_back(one_rank(1, "gpu_idle").ranks[0]);
  b.ranks.push_back(one_rank(1, "gpu_idle").ranks[0]);
  a.ranks[0].hta_overlap = overlap(8, 2);  // 25% of communication beside computation
  b.ranks[0].hta_overlap = overlap(4, 3);  // 75%
  a.ranks[1].hta_overlap = overlap(6, 0);  // rank 1: only A ran NCCL kernels
  a.ranks[0].hta_window.cut = a.ranks[1].hta_window.cut = true;
  a.ranks[0].hta_window.last_step = a.ranks[1].hta_window.last_step = "ProfilerStep#8";
  DiffReport d = diff_reports(a, b);
  ASSERT_EQ(d.hta.size(), 2u);
  EXPECT_EQ(d.hta[0].rank, "0");
  EXPECT_DOUBLE_EQ(d.hta[0].b.comp_comm_overlap_pctg, 75);
  EXPECT_TRUE(d.hta[1].a_has);
  EXPECT_FALSE(d.hta[1].b_has);

  std::string text = diff_text(d, "a", "b", 5);
  EXPECT_NE(text.find("totals over each side's HTA window, not per step"), std::string::npos) << text;
  EXPECT_NE(
      text.find("  0             8.00 ms          4.00 ms    2\u00d7 faster               25.00%               75.00%"),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find("  1             6.00 ms                -            -                0.00%                    -"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("A: without its last step (ProfilerStep#8"), std::string::npos) << text;
  EXPECT_NE(text.find("the windows differ"), std::string::npos) << text;

  auto j = diff_json(d, {"a"}, {"b"}, 5)["hta_overlap"];
  ASSERT_EQ(j.size(), 2u);
  EXPECT_DOUBLE_EQ(j[0]["a"]["hta_overlap"]["comp_comm_overlap_pctg"].get<double>(), 25);
  EXPECT_DOUBLE_EQ(j[0]["b"]["hta_overlap"]["communication_only_ms"].get<double>(), 1);
  EXPECT_EQ(j[0]["a"]["hta_window"]["last_step"], "ProfilerStep#8");
  EXPECT_TRUE(j[1]["b"].is_null());

  auto csv = diff_csv(d);
  ASSERT_EQ(csv.size(), 2u);
  EXPECT_EQ(csv[1].first, "hta_overlap.csv");
  EXPECT_EQ(csv[1].second,
            "rank,side,window,last_step,communication_kernels,communication_ms,computation_ms,overlap_ms,"
            "comp_comm_overlap_pctg,computation_only_ms,communication_only_ms\r\n"
            "0,a,default,ProfilerStep#8,4,8,10,2,25,8,6\r\n"
            "0,b,default,,4,4,10,3,75,7,1\r\n"
            "1,a,default,ProfilerStep#8,4,6,10,0,0,10,6\r\n");
}

TEST(DiffHtaOverlap, NothingWithoutNcclKernelsAndOneWithOneNamesBothIds) {
  DiffReport none = diff_reports(one_rank(0, "gpu_idle"), one_rank(0, "gpu_idle"));
  EXPECT_TRUE(none.hta.empty());
  EXPECT_EQ(diff_text(none, "a", "b", 5).find("communication beside computation"), std::string::npos);
  EXPECT_TRUE(diff_json(none, {"a"}, {"b"}, 5)["hta_overlap"].empty());

  AnalyzeReport a = one_rank(3, "gpu_idle"), b = one_rank(1, "gpu_idle");
  a.ranks[0].hta_overlap = overlap(8, 2);
  b.ranks[0].hta_overlap = overlap(8, 2);
  DiffReport d = diff_reports(a, b);
  ASSERT_EQ(d.hta.size(), 1u);
  EXPECT_EQ(d.hta[0].rank, "3 (A) / 1 (B)");
  EXPECT_NE(diff_text(d, "a", "b", 5).find("HTA's window, A and B: the whole trace"), std::string::npos);
}

}  // namespace
}  // namespace cuprobe
