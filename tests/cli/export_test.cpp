#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "store/run_file_schema.h"
#include "store/run_file_writer.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

TEST(ExportCli, WritesAChromeTraceOfARunFile) {
  std::string dir = temp_dir();
  {
    RunFileWriter w(dir + "/run.cuprobe", false);
    RunKernelRow k;
    k.start_ns = 1000;
    k.end_ns = 3000;
    k.device = 0;
    k.name_id = w.name_id("gemm_kernel");
    w.add_kernel(k);
    w.finish(kRunStatusComplete);
  }
  auto r = run_cuprobe({"export", "--chrome", dir + "/run.cuprobe", "-o", dir + "/trace.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(slurp(dir + "/trace.json"));
  ASSERT_EQ(j["traceEvents"][0]["name"], "gemm_kernel");
  EXPECT_DOUBLE_EQ(j["traceEvents"][0]["dur"].get<double>(), 2.0);
}

TEST(ExportCli, WritesATrimmedChromeTraceOfAKinetoTrace) {
  std::string dir = temp_dir();
  auto r =
      run_cuprobe({"export", "--chrome", data_path("mla_fp8pool_fullcast_small.json.gz"), "-o", dir + "/trace.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(slurp(dir + "/trace.json"));
  std::size_t kernels = 0, annotations = 0;
  for (const auto& e : j["traceEvents"]) {
    kernels += e.value("cat", "") == "kernel";
    annotations += e.value("cat", "") == "user_annotation" && e.value("name", "").starts_with("decode_step");
  }
  EXPECT_GT(kernels, 100u);
  EXPECT_EQ(annotations, 5u);  // the five decode steps analyze finds
  // The same kernels as analyze counts, from the same model.
  auto a =
      nlohmann::json::parse(run_cuprobe({"analyze", "--json", data_path("mla_fp8pool_fullcast_small.json.gz")}).out);
  std::size_t calls = 0;
  for (const auto& k : a["ranks"][0]["kernels"]) calls += k["calls"].get<std::size_t>();
  std::size_t gpu_events = 0;
  for (const auto& e : j["traceEvents"]) {
    std::string cat = e.value("cat", "");
    gpu_events += cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "cuda_graph";
  }
  EXPECT_EQ(gpu_events, calls);
}

// Two ranks in one file: a process each, on one time origin, every event kept.
TEST(ExportCli, MergesRanksIntoOneTraceAProcessEach) {
  std::string dir = temp_dir();
  std::vector<std::string> files{data_path("tp2_mlp_decode_rank1.json.gz"), data_path("tp2_mlp_decode_rank0.json.gz")};
  auto r = run_cuprobe({"export", "--chrome", files[0], files[1], "-o", dir + "/merged.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("2 ranks"), std::string::npos) << r.err;
  auto j = nlohmann::json::parse(slurp(dir + "/merged.json"));
  ASSERT_EQ(j["otherData"]["ranks"].size(), 2u);
  EXPECT_EQ(j["otherData"]["ranks"][0]["rank"], 0);  // in rank order, whatever the order given
  EXPECT_EQ(j["otherData"]["ranks"][0]["pid"], 1);
  std::map<int, std::size_t> kernels_of_pid;
  std::map<int, std::string> process_names;
  std::set<std::pair<int, int>> named_threads, used_threads;
  double earliest = 1e300;
  for (const auto& e : j["traceEvents"]) {
    std::string ph = e["ph"];
    if (ph == "M") {
      int pid = e["pid"].get<int>();
      if (e["name"] == "process_name") process_names[pid] = e["args"]["name"].get<std::string>();
      if (e["name"] == "thread_name") named_threads.insert({pid, e["tid"].get<int>()});
      continue;
    }
    ASSERT_TRUE(e["pid"] == 1 || e["pid"] == 2) << e.dump();
    if (ph == "X") {
      used_threads.insert({e["pid"].get<int>(), e["tid"].get<int>()});
      earliest = std::min(earliest, e["ts"].get<double>());
      if (e["cat"] == "kernel") ++kernels_of_pid[e["pid"].get<int>()];
    }
  }
  EXPECT_EQ(kernels_of_pid[1], 384u);
  EXPECT_EQ(kernels_of_pid[2], 384u);
  EXPECT_EQ(earliest, 0.0);  // one origin: the earliest event of any rank
  EXPECT_EQ(named_threads, used_threads);
  EXPECT_EQ(process_names[1].rfind("rank 0: ", 0), 0u) << process_names[1];
  EXPECT_EQ(process_names[2].rfind("rank 1: ", 0), 0u) << process_names[2];
  // Rank 1's events keep their distance to rank 0's but for its clock offset: shifted by the same origin.
  auto single = run_cuprobe({"export", "--chrome", files[0], "-o", "-"});
  ASSERT_EQ(single.exit_code, 0);
  auto one = nlohmann::json::parse(single.out);
  auto base_one = one["otherData"]["base_time_ns"].get<std::int64_t>();
  auto base_all = j["otherData"]["base_time_ns"].get<std::int64_t>();
  EXPECT_LE(base_all, base_one);
  double first_kernel_one = 1e300, first_kernel_merged = 1e300;
  for (const auto& e : one["traceEvents"])
    if (e.value("cat", "") == "kernel") first_kernel_one = std::min(first_kernel_one, e["ts"].get<double>());
  for (const auto& e : j["traceEvents"])
    if (e.value("cat", "") == "kernel" && e["pid"] == 2)
      first_kernel_merged = std::min(first_kernel_merged, e["ts"].get<double>());
  // Rank 1's clock is put on rank 0's by the offset the collectives' ends give (one host: a few us).
  auto offset = j["otherData"]["ranks"][1]["clock_offset_ns"].get<std::int64_t>();
  EXPECT_LT(std::abs(offset), 10000);
  EXPECT_NEAR(first_kernel_merged, first_kernel_one + static_cast<double>(base_one - base_all - offset) / 1e3, 1e-3);
}

TEST(ExportCli, BadInputIsOneLineAndNonZero) {
  std::string dir = temp_dir();
  { std::ofstream(dir + "/bad.cuprobe") << "not sqlite"; }
  auto r = run_cuprobe({"export", "--chrome", dir + "/bad.cuprobe", "-o", dir + "/t.json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::ifstream(dir + "/t.json").good());
  EXPECT_EQ(run_cuprobe({"export", dir + "/bad.cuprobe", "-o", dir + "/t.json"}).exit_code, 2);  // no --chrome
}

}  // namespace
}  // namespace cuprobe::test
