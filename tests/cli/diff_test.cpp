// cuprobe diff: the CI gate (--fail-if-slower, --metric), the rank-count check,
// and per-step figures normalised the same way for the headline and the rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "report/csv_table.h"
#include "support/read_csv.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

const std::string kFull = data_path("mla_fp8pool_fullcast_small.json.gz");
const std::string kGather = data_path("mla_fp8pool_gathercast_small.json.gz");
const std::string kTp2 = data_path("tp2_mlp_decode_rank0.json.gz") + "," + data_path("tp2_mlp_decode_rank1.json.gz");

TEST(DiffGateCli, PassesWhenBIsFasterAndTripsWhenSlower) {
  auto faster = run_cuprobe({"diff", kFull, kGather, "--fail-if-slower", "5%"});
  EXPECT_EQ(faster.exit_code, 0) << faster.err;
  EXPECT_NE(faster.out.find("gate: GPU time per step"), std::string::npos) << faster.out;
  EXPECT_NE(faster.out.find("passed"), std::string::npos) << faster.out;

  auto slower = run_cuprobe({"diff", kGather, kFull, "--fail-if-slower", "5"});
  EXPECT_EQ(slower.exit_code, 4) << slower.err;
  EXPECT_NE(slower.out.find("FAILED"), std::string::npos) << slower.out;
  EXPECT_NE(slower.err.find("gate:"), std::string::npos) << slower.err;
}

TEST(DiffGateCli, SameInputNeverTripsAndJsonCarriesTheGate) {
  auto r = run_cuprobe({"diff", "--json", kFull, kFull, "--fail-if-slower", "0%"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["gate"]["metric"], "gpu");
  EXPECT_DOUBLE_EQ(j["gate"]["change_pct"].get<double>(), 0.0);
  EXPECT_FALSE(j["gate"]["tripped"].get<bool>());
}

TEST(DiffGateCli, StepMetricComparesStepTime) {
  // Step time falls only ~1.12x fullcast -> gathercast; reversed, it rises ~12%.
  auto r = run_cuprobe({"diff", "--json", kGather, kFull, "--fail-if-slower", "50%", "--metric", "step"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["gate"]["metric"], "step");
  EXPECT_DOUBLE_EQ(j["gate"]["a_ms"].get<double>(), j["step_wall_ms"]["a"].get<double>());
  double change = j["gate"]["change_pct"];
  EXPECT_GT(change, 5.0);
  EXPECT_LT(change, 50.0);
  EXPECT_EQ(run_cuprobe({"diff", kGather, kFull, "--fail-if-slower", "5%", "--metric", "step"}).exit_code, 4);
}

TEST(DiffGateCli, BadPercentIsAUsageError) {
  for (const char* bad : {"abc", "5%%", "-3", "5 %", "nan"}) {
    auto r = run_cuprobe({"diff", kFull, kGather, "--fail-if-slower", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_EQ(run_cuprobe({"diff", kFull, kGather, "--metric", "wall"}).exit_code, 2);
}

TEST(DiffCli, RefusesDifferentRankCountsUnlessForced) {
  auto refused = run_cuprobe({"diff", kTp2, data_path("tp2_mlp_decode_rank0.json.gz")});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_TRUE(refused.out.empty()) << refused.out;
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  EXPECT_NE(refused.err.find("A has 2 rank(s), B has 1"), std::string::npos) << refused.err;

  auto forced = run_cuprobe({"diff", "--force", kTp2, data_path("tp2_mlp_decode_rank0.json.gz")});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(forced.err.find("warning"), std::string::npos) << forced.err;
}

// Regression: rank 0's first all-reduce waits 537 ms for rank 1. The headline
// (median GPU busy per step, ~1 ms) sat beside a per-step mean for the rows
// (34 ms of communication "per step"). Rows and headline now use the same
// median, so no category can exceed the GPU time per step it belongs to.
TEST(DiffCli, PerStepRowsAreNormalisedLikeTheHeadline) {
  auto r = run_cuprobe({"diff", "--json", "--force", kTp2, data_path("tp2_mlp_decode_rank0.json.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["basis"], "step");
  EXPECT_EQ(j["ranks"]["a"], 2);
  EXPECT_EQ(j["ranks"]["b"], 1);
  double a_gpu = j["step_ms"]["a"], b_gpu = j["step_ms"]["b"];
  bool saw_comm = false;
  for (const auto& c : j["changes"]) {
    if (c["kind"] != "category") continue;
    EXPECT_LE(c["a_ms"].get<double>(), a_gpu * 1.05) << c.dump();
    EXPECT_LE(c["b_ms"].get<double>(), b_gpu * 1.05) << c.dump();
    saw_comm = saw_comm || c["name"] == "communication";
  }
  EXPECT_TRUE(saw_comm) << r.out;
}

nlohmann::json json_of(const std::vector<std::string>& args) {
  auto r = run_cuprobe(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// issue 35: diff shows HTA's communication overlap and communication (NCCL) time per paired rank, the very figures
// `analyze` prints (one computation), in text, JSON and CSV, on the real TP-2 pair.
TEST(DiffCli, HtaOverlapIsAnalyzesOwnFiguresInTextJsonAndCsv) {
  const std::string r0 = data_path("tp2_mlp_decode_rank0.json.gz"), r1 = data_path("tp2_mlp_decode_rank1.json.gz");
  auto analyzed = json_of({"analyze", "--json", r0, r1});
  std::string dir = temp_dir();
  auto d = json_of({"diff", "--json", "--csv", dir, kTp2, kTp2});
  ASSERT_EQ(d["hta_overlap"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& rank = analyzed["ranks"][i];
    const auto& row = d["hta_overlap"][i];
    EXPECT_EQ(row["rank"], std::to_string(rank["rank"].get<int>()));
    for (const char* side : {"a", "b"}) {
      EXPECT_EQ(row[side]["hta_overlap"], rank["hta_overlap"]) << side << i;
      EXPECT_EQ(row[side]["hta_window"], rank["hta_window"]) << side << i;
    }
  }
  EXPECT_EQ(d["hta_overlap"][0]["a"]["hta_overlap"]["communication_kernels"], 64);

  // CSV: analyze's hta_overlap.csv columns, the same numbers as analyze writes them.
  std::string adir = temp_dir();
  ASSERT_EQ(run_cuprobe({"analyze", "--csv", adir, r0, r1}).exit_code, 0);
  auto ours = read_csv(dir + "/hta_overlap.csv"), theirs = read_csv(adir + "/hta_overlap.csv");
  ASSERT_EQ(ours.size(), 4u);  // two ranks, two sides
  ASSERT_EQ(theirs.size(), 2u);
  for (const auto& row : ours) {
    const auto& analyzed_row = theirs.at(row.at("rank") == "0" ? 0 : 1);
    for (const auto& [column, value] : analyzed_row) EXPECT_EQ(row.at(column), value) << column;
    EXPECT_EQ(row.at("window"), "default");
  }
  auto changes = read_csv(dir + "/changes.csv");
  EXPECT_EQ(changes.size(), d["changes"].size());  // every row; --top 12 is more than this pair has
  EXPECT_EQ(changes.at(0).at("a_ms"), csv_number(d["changes"][0]["a_ms"].get<double>()));

  auto text = run_cuprobe({"diff", kTp2, kTp2});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("communication beside computation (as HTA"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("  0              548 ms           548 ms         same                0.00%"),
            std::string::npos)
      << text.out;
}

TEST(DiffCli, HtaOverlapOneRankWithAnotherAndNoneWithoutNccl) {
  auto d =
      json_of({"diff", "--json", data_path("tp2_mlp_decode_rank0.json.gz"), data_path("tp2_mlp_decode_rank1.json.gz")});
  ASSERT_EQ(d["hta_overlap"].size(), 1u);
  EXPECT_EQ(d["hta_overlap"][0]["rank"], "0 (A) / 1 (B)");
  EXPECT_NEAR(d["hta_overlap"][0]["a"]["hta_overlap"]["communication_ms"].get<double>(), 547.586, 1e-3);
  EXPECT_NEAR(d["hta_overlap"][0]["b"]["hta_overlap"]["communication_ms"].get<double>(), 0.615, 1e-3);

  std::string dir = temp_dir();
  auto none = run_cuprobe({"diff", "--csv", dir, kFull, kGather});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out.find("communication beside computation"), std::string::npos) << none.out;
  EXPECT_TRUE(read_csv(dir + "/hta_overlap.csv").empty());
  EXPECT_TRUE(json_of({"diff", "--json", kFull, kGather})["hta_overlap"].empty());
  auto dash = run_cuprobe({"diff", "--csv", "-", kFull, kGather});
  EXPECT_EQ(dash.exit_code, 2);
  EXPECT_EQ(std::count(dash.err.begin(), dash.err.end(), '\n'), 1) << dash.err;
}

}  // namespace
}  // namespace cuprobe::test
