// `cuprobe sample --preset pipes` end to end on the synthetic backend whose samples
// arrive in parts (CUPROBE_TEST_PM_PARTS): every value reads the synthetic truth, not
// the sawtooth of issue 29 (a counter image reset while a sample was still arriving).
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "support/background_process.h"
#include "support/fake_gpu_env.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  return cells;
}

TEST(SampleCli, PipesPresetReadsWholeSamplesThatArriveInParts) {
  std::string dir = temp_dir();
  std::vector<std::string> env = fake_gpu_env();
  env.push_back("CUPROBE_TEST_PM_PARTS=20");
  BackgroundProcess sample(CUPROBE_BINARY,
                           {"sample", "--preset", "pipes", "--interval", "100ms", "--duration", "1500ms", "-q", "-o",
                            dir + "/s.csv", "--summary-json", dir + "/summary.json"},
                           dir + "/sample", env);
  for (int i = 0; i < 400 && sample.running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_EQ(sample.stop(SIGKILL, 1000), 0) << sample.err();

  std::ifstream in(dir + "/s.csv");
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  std::vector<std::string> header = split_csv(line);
  // The synthetic truth per column (synthetic_pm_backend.h): tensor 42.5 + gpu, other
  // percentages 60 + gpu.
  std::vector<std::pair<std::size_t, double>> checked;  // column, value on GPU 0
  for (std::size_t c = 0; c < header.size(); ++c) {
    const std::string& h = header[c];
    if (h.rfind("tensor_", 0) == 0) checked.push_back({c, 42.5});
    if (h == "gr_active_pct" || h == "sm_active_pct" || h == "fma_pct" || h == "dram_pct") checked.push_back({c, 60});
  }
  ASSERT_EQ(checked.size(), 7u) << line;
  int rows[2] = {0, 0};
  while (std::getline(in, line)) {
    std::vector<std::string> cells = split_csv(line);
    ASSERT_EQ(cells.size(), header.size()) << line;
    int gpu = std::stoi(cells[0]);
    ASSERT_TRUE(gpu == 0 || gpu == 1) << line;
    ++rows[gpu];
    for (auto [column, truth] : checked) {
      EXPECT_NEAR(std::stod(cells[column]), truth + gpu, 1e-9) << header[column] << " in " << line;
    }
  }
  EXPECT_GE(rows[0], 10);
  EXPECT_GE(rows[1], 10);

  std::ifstream summary_file(dir + "/summary.json");
  nlohmann::json summary = nlohmann::json::parse(summary_file, nullptr, false);
  ASSERT_FALSE(summary.is_discarded());
  EXPECT_EQ(summary["lost_samples"], 0);
}

}  // namespace
}  // namespace cuprobe::test
