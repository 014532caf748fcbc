// cuprobe analyze --csv DIR: four tables whose totals add up to the text report.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/units.h"
#include "support/read_csv.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

TEST(AnalyzeCsvCli, TablesAddUpToTheReport) {
  std::string dir = temp_dir() + "/tables";
  std::vector<std::string> files{data_path("tp2_mlp_decode_rank0.json.gz"), data_path("tp2_mlp_decode_rank1.json.gz")};
  auto r = run_cuprobe({"analyze", "--csv", dir, files[0], files[1]});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("findings"), std::string::npos);  // the text report still prints
  auto j = nlohmann::json::parse(run_cuprobe({"analyze", "--json", files[0], files[1]}).out);

  auto categories = read_csv(dir + "/categories.csv");
  auto kernels = read_csv(dir + "/kernels.csv");
  auto steps = read_csv(dir + "/steps.csv");
  auto findings = read_csv(dir + "/findings.csv");
  for (const auto& rank : j["ranks"]) {
    std::string id = std::to_string(rank["rank"].get<int>());
    double cat_sum = 0, kernel_sum = 0, json_sum = 0, step_busy = 0;
    std::size_t rank_steps = 0;
    for (const auto& c : categories) cat_sum += c.at("rank") == id ? std::stod(c.at("time_ms")) : 0;
    for (const auto& k : kernels) kernel_sum += k.at("rank") == id ? std::stod(k.at("time_ms")) : 0;
    for (const auto& c : rank["categories"]) json_sum += c["time_ms"].get<double>();
    for (const auto& s : steps) {
      if (s.at("rank") != id) continue;
      ++rank_steps;
      step_busy += std::stod(s.at("gpu_busy_ms"));
    }
    EXPECT_NEAR(cat_sum, json_sum, 1e-6 * json_sum) << id;
    EXPECT_NEAR(kernel_sum, json_sum, 1e-6 * json_sum) << id;
    EXPECT_EQ(rank_steps, rank["steps"]["count"].get<std::size_t>());
    EXPECT_GT(step_busy, 0);
    EXPECT_LE(step_busy, rank["gpu_busy_ms"].get<double>() * (1 + 1e-9));
  }
  // The text report's category rows show the same times (as formatted there).
  for (const auto& c : categories) {
    EXPECT_NE(r.out.find(format_duration_ms(std::stod(c.at("time_ms")))), std::string::npos) << c.at("category");
  }
  ASSERT_EQ(findings.size(), j["findings"].size());
  for (std::size_t i = 0; i < findings.size(); ++i) {
    EXPECT_EQ(findings[i].at("id"), j["findings"][i]["id"]);
    EXPECT_EQ(findings[i].at("title"), j["findings"][i]["title"]);
  }
  // Kernel names with commas survive quoting.
  bool comma_name = false;
  for (const auto& k : kernels) comma_name = comma_name || k.at("kernel").find(',') != std::string::npos;
  EXPECT_TRUE(comma_name);
}

TEST(AnalyzeCsvCli, StepCategoriesAddUpToTheCategoryTable) {
  std::string dir = temp_dir();
  auto r = run_cuprobe({"analyze", "--csv", dir, data_path("mla_fp8pool_fullcast_small.json.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto steps = read_csv(dir + "/steps.csv");
  ASSERT_EQ(steps.size(), 5u);
  for (const auto& c : read_csv(dir + "/categories.csv")) {
    double in_steps = 0;
    for (const auto& s : steps) in_steps += std::stod(s.at(c.at("category") + "_ms"));
    EXPECT_NEAR(in_steps / 5, std::stod(c.at("per_step_ms")), 1e-6) << c.at("category");
  }
}

TEST(AnalyzeCsvCli, UnwritableDirectoryIsOneLine) {
  std::string dir = temp_dir();
  std::ofstream(dir + "/file") << "x";
  auto r = run_cuprobe({"analyze", "--csv", dir + "/file/sub", data_path("mla_fp8pool_fullcast_small.json.gz")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
}  // namespace cuprobe::test
