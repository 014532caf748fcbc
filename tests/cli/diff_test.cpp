// cuprobe diff: the CI gate (--fail-if-slower, --metric), the rank-count check,
// and per-step figures normalised the same way for the headline and the rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

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

}  // namespace
}  // namespace cuprobe::test
