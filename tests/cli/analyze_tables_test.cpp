// The peers' tables end to end: `analyze --json`, `--csv` and the text agree, on real traces and on rocprofv3 output.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

nlohmann::json analyze_json(const std::vector<std::string>& files) {
  std::vector<std::string> args{"analyze", "--json"};
  args.insert(args.end(), files.begin(), files.end());
  auto r = run_cuprobe(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

std::size_t lines(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) ++n;
  return n;
}

TEST(AnalyzeTablesCli, TwoRanksTablesAreConsistent) {
  std::vector<std::string> files{data_path("tp2_mlp_decode_rank0.json.gz"), data_path("tp2_mlp_decode_rank1.json.gz")};
  auto j = analyze_json(files);
  for (const auto& rank : j["ranks"]) {
    for (const auto& k : rank["kernels"]) {
      EXPECT_LE(k["min_us"].get<double>(), k["median_us"].get<double>());
      EXPECT_LE(k["median_us"].get<double>(), k["p90_us"].get<double>());
      EXPECT_LE(k["p90_us"].get<double>(), k["max_us"].get<double>());
      EXPECT_LE(k["min_us"].get<double>(), k["mean_us"].get<double>());
      EXPECT_LE(k["mean_us"].get<double>(), k["max_us"].get<double>() * (1 + 1e-12));
    }
    const auto& idle = rank["idle_by_stream"];
    EXPECT_TRUE(idle["launches_known"].get<bool>());
    double streams = 0;
    for (const auto& s : idle["streams"]) streams += s["idle_ms"].get<double>();
    EXPECT_NEAR(streams, idle["total"]["idle_ms"].get<double>(), 1e-9);
    EXPECT_LT(idle["total"]["idle_ms"].get<double>(), rank["window_ms"].get<double>());
    EXPECT_EQ(rank["launch_stats"]["all"]["launches"], 384);  // every kernel here has its launch call
    ASSERT_EQ(rank["annotations"].size(), 2u);
    EXPECT_EQ(rank["annotations"][0]["name"], "decode_step");
    EXPECT_EQ(rank["annotations"][0]["ranges"], 8);
    EXPECT_EQ(rank["annotations"][1]["name"], "nccl:all_reduce");
    EXPECT_EQ(rank["annotations"][1]["activities"], 64);
    EXPECT_FALSE(rank["api_summary"].empty());
    EXPECT_TRUE(rank["copies"].empty());  // no copies in this decode
    ASSERT_EQ(rank["queue_length"].size(), 1u);
    // HTA's get_comm_comp_overlap: one stream per rank, so the 64 all-reduces never run beside a computation kernel
    // (the figures against HTA's formula: tests/validation/peer_tables.py).
    const auto& hta = rank["hta_overlap"];
    EXPECT_EQ(hta["communication_kernels"], 64);
    EXPECT_DOUBLE_EQ(hta["comp_comm_overlap_pctg"].get<double>(), 0);
    EXPECT_DOUBLE_EQ(hta["communication_only_ms"].get<double>(), hta["communication_ms"].get<double>());
    EXPECT_GT(hta["computation_ms"].get<double>(), 2.0);
  }
  // Rank 0's first all-reduce waits ~0.5 s for rank 1: everything it launches queues behind it.
  EXPECT_GT(j["ranks"][0]["queue_length"][0]["max"].get<int>(), 300);
  EXPECT_LE(j["ranks"][1]["queue_length"][0]["max"].get<int>(), 3);

  std::string dir = temp_dir();
  auto r = run_cuprobe({"analyze", "--csv", dir, files[0], files[1]});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("idle.csv"), std::string::npos) << r.err;
  EXPECT_EQ(lines(dir + "/idle.csv"), 1 + 2u);  // a stream per rank
  EXPECT_EQ(lines(dir + "/annotations.csv"), 1 + 4u);
  EXPECT_EQ(lines(dir + "/queues.csv"), 1 + 2u);
  EXPECT_EQ(lines(dir + "/launches.csv"),
            1 + j["ranks"][0]["launch_stats"]["kernels"].size() + j["ranks"][1]["launch_stats"]["kernels"].size());
  EXPECT_EQ(lines(dir + "/copies.csv"), 1u);
  EXPECT_EQ(lines(dir + "/hta_overlap.csv"), 1 + 2u);  // a row per rank
  for (const char* text : {"idle time by cause", "launch delays", "annotations (GPU time", "runtime API",
                           "queue length", "median      max", "comp/comm overlap 0.00% of communication"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  }
}

// issue 35 item 5: the tables named after HTA cover HTA's default window (the last ProfilerStep left out), say so,
// and --hta-window all keeps it; the queue table names its two means.
TEST(AnalyzeTablesCli, HtaWindowIsHtasDefaultAndSaid) {
  std::string trace = data_path("format_pipeline_two_gpus.json");  // ProfilerStep#1..#4, 96 activities
  auto def = analyze_json({trace});
  const auto& w = def["ranks"][0]["hta_window"];
  EXPECT_EQ(w["window"], "default");
  EXPECT_TRUE(w["last_step_left_out"].get<bool>());
  EXPECT_EQ(w["last_step"], "ProfilerStep#4");
  EXPECT_EQ(w["activities_left_out"], 24);  // launched at or after ProfilerStep#4's start
  EXPECT_NEAR(w["gpu_ms_left_out"].get<double>(), 0.538, 1e-9);
  auto all = run_cuprobe({"analyze", "--json", "--hta-window", "all", trace});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  auto a = nlohmann::json::parse(all.out);
  EXPECT_EQ(a["ranks"][0]["hta_window"]["window"], "all");
  EXPECT_FALSE(a["ranks"][0]["hta_window"]["last_step_left_out"].get<bool>());
  // The whole trace has more launches; the tables named after nsys are the same in both.
  EXPECT_EQ(a["ranks"][0]["launch_stats"]["all"]["launches"].get<int>() -
                def["ranks"][0]["launch_stats"]["all"]["launches"].get<int>(),
            24);
  EXPECT_EQ(a["ranks"][0]["api_summary"], def["ranks"][0]["api_summary"]);
  EXPECT_EQ(a["ranks"][0]["kernels"], def["ranks"][0]["kernels"]);
  for (const auto& q : def["ranks"][0]["queue_length"]) {
    EXPECT_TRUE(q.contains("mean_per_event") && q.contains("mean_time_weighted")) << q.dump();
    EXPECT_FALSE(q.contains("mean")) << "one word, one figure: each mean has its name";
  }
  auto text = run_cuprobe({"analyze", trace});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("idle time, launch delays, queue length and HTA's communication overlap: HTA's default "
                          "window, without the last step (ProfilerStep#4"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("--hta-window all keeps it"), std::string::npos);
  EXPECT_NE(text.out.find("mean per event: HTA's"), std::string::npos);
  auto bad = run_cuprobe({"analyze", "--hta-window", "last", trace});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

TEST(AnalyzeTablesCli, RocprofOutputFillsEveryTable) {
  auto j = analyze_json({data_path("rocprofv3/matrix_transpose_results.json")});
  const auto& rank = j["ranks"][0];
  EXPECT_EQ(rank["device"], "AMD Instinct MI300X");
  EXPECT_EQ(rank["gpu_activities"], 6);
  EXPECT_EQ(rank["launch_stats"]["all"]["launches"], 6);  // 2 hipLaunchKernel, 4 hipMemcpy
  ASSERT_EQ(rank["launch_stats"]["kernels"].size(), 3u);
  ASSERT_EQ(rank["copies"].size(), 2u);
  for (const auto& c : rank["copies"]) {
    EXPECT_EQ(c["count"], 2);
    EXPECT_DOUBLE_EQ(c["bytes"].get<double>(), 2 * 4194304.0);
    EXPECT_NEAR(c["gbps"].get<double>(), 4194304.0 / 60'000, 1e-9);  // 4 MiB in 60 us
  }
  ASSERT_EQ(rank["annotations"].size(), 2u);
  for (const auto& a : rank["annotations"]) {
    EXPECT_EQ(a["activities"], 6);  // the ranges hold every launch
    EXPECT_EQ(a["ranges"], a["name"] == "main" ? 1 : 2);
  }
  bool launch_api = false;
  for (const auto& a : rank["api_summary"])
    launch_api = launch_api || (a["name"] == "hipLaunchKernel" && a["calls"] == 2);
  EXPECT_TRUE(launch_api);
  // Each iteration's copy, kernel and copy run back to back once launched: host wait only between iterations.
  EXPECT_GT(rank["idle_by_stream"]["total"]["host_wait_ms"].get<double>(), 0);
}

}  // namespace
}  // namespace cuprobe::test
