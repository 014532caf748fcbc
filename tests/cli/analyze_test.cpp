#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

TEST(AnalyzeCli, TextReportNamesTheCastAndItsFix) {
  auto r = run_cuprobe({"analyze", data_path("mla_fp8pool_fullcast_small.json.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("steps: 5 (annotation 'decode_step')"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1. [high] copy_cast_dominant"), std::string::npos) << r.out;
  // The finding names its kernels as the kernel table's rows do: the bf16 and the fp32 cast apart.
  EXPECT_NE(r.out.find("kernels: unrolled_elementwise_kernel<direct_copy_kernel_cuda(BFloat16)>, "
                       "vectorized_gather_kernel<long>, unrolled_elementwise_kernel<direct_copy_kernel_cuda(float)>"),
            std::string::npos)
      << r.out;
}

TEST(AnalyzeCli, JsonFollowsTheSchema) {
  auto r = run_cuprobe(
      {"analyze", "--json", data_path("tp2_mlp_decode_rank0.json.gz"), data_path("tp2_mlp_decode_rank1.json.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "cuprobe.analyze/1");
  ASSERT_EQ(j["ranks"].size(), 2u);
  const auto& rank = j["ranks"][0];
  for (const char* key : {"rank", "file", "device", "window_ms", "gpu_busy_ms", "gpu_busy_share", "steps", "categories",
                          "tensor_core_share", "kernels", "findings"}) {
    EXPECT_TRUE(rank.contains(key)) << key;
  }
  for (const char* key : {"count", "source", "median_ms", "p90_ms", "gpu_median_ms"}) {
    EXPECT_TRUE(rank["steps"].contains(key)) << key;
  }
  const auto& k = rank["kernels"][0];
  for (const char* key : {"name", "category", "tensor_core", "precision", "calls", "time_ms", "share"}) {
    EXPECT_TRUE(k.contains(key)) << key;
  }
  const auto& f = j["findings"][0];
  for (const char* key : {"id", "severity", "share", "title", "suggestion", "kernels"})
    EXPECT_TRUE(f.contains(key)) << key;
  EXPECT_TRUE(j["warnings"].is_array());
}

// issue 12 item 6: a process driving two GPUs lists each GPU, in text and JSON; a file of two processes is two ranks.
TEST(AnalyzeCli, EachGpuOfARankIsListedAndEachProcessOfAFileIsARank) {
  auto text = run_cuprobe({"analyze", data_path("format_pipeline_two_gpus.json")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("2 GPUs driven by this rank (GPU busy above: the time any of them works"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("    0    NVIDIA H100 80GB HBM3  1.03 ms        43%    0.26 ms           57%"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("1. [high] pipeline_bubble: 2 GPUs take turns"), std::string::npos) << text.out;
  auto r = run_cuprobe({"analyze", "--json", data_path("format_pipeline_two_gpus.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const auto& devices = j["ranks"][0]["devices"];
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[1]["device"], 1);
  EXPECT_EQ(devices[1]["activities"], 52);
  EXPECT_NEAR(devices[1]["step_busy_median_ms"].get<double>(), 0.280, 1e-9);
  EXPECT_NEAR(devices[1]["waiting_share"].get<double>(), 0.258 / 0.603, 1e-9);
  EXPECT_NEAR(j["ranks"][0]["overlapped_step_ms"].get<double>(), 0.345, 1e-9);

  auto two = run_cuprobe({"analyze", "--json", data_path("format_processes_per_gpu.json")});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  auto k = nlohmann::json::parse(two.out);
  ASSERT_EQ(k["ranks"].size(), 2u);
  EXPECT_EQ(k["ranks"][1]["rank"], 1);
  ASSERT_EQ(k["ranks"][1]["devices"].size(), 1u);
  EXPECT_EQ(k["ranks"][1]["devices"][0]["device"], 1);
  EXPECT_TRUE(k["ranks"][1]["overlapped_step_ms"].is_null());
}

TEST(AnalyzeCli, BadInputIsOneLineAndExitOne) {
  std::string dir = temp_dir();
  std::ofstream(dir + "/notrace.json") << R"J({"hello": "world"})J";
  std::ofstream(dir + "/broken.json") << R"J({"traceEvents": [{"ph": "X",)J";
  std::ofstream(dir + "/empty.json") << R"J({"traceEvents": []})J";
  std::ofstream(dir + "/garbage.json.gz") << "\x1f\x8b\x08garbage";
  for (const char* name : {"notrace.json", "broken.json", "empty.json", "garbage.json.gz", "missing.json"}) {
    auto r = run_cuprobe({"analyze", dir + "/" + name});
    EXPECT_EQ(r.exit_code, 1) << name;
    EXPECT_TRUE(r.out.empty()) << name << ": " << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
  }
}

TEST(AnalyzeCli, UsageErrorsExitTwo) {
  EXPECT_EQ(run_cuprobe({"analyze"}).exit_code, 2);
  EXPECT_EQ(run_cuprobe({"analyze", "--no-such-flag", "x.json"}).exit_code, 2);
  EXPECT_EQ(run_cuprobe({"analyze", "--help"}).exit_code, 0);
}

TEST(AnalyzeCli, StrictTurnsOddEventsIntoFailure) {
  std::string dir = temp_dir();
  std::ofstream(dir + "/odd.json")
      << R"J({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": -4},
                                      {"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 4, "args": {"correlation": 1}}]})J";
  auto lenient = run_cuprobe({"analyze", dir + "/odd.json"});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
  EXPECT_NE(lenient.out.find("negative duration"), std::string::npos);
  EXPECT_EQ(run_cuprobe({"analyze", "--strict", dir + "/odd.json"}).exit_code, 1);
}

// issue 12 item 1: a trace full of odd fields is analyzed, every oddity counted.
TEST(AnalyzeCli, ToleratesOddFieldsAndCountsThemInJson) {
  auto r = run_cuprobe({"analyze", "--json", data_path("hostile_fields.json.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::map<std::string, std::int64_t> counts;
  for (const auto& s : j["ranks"][0]["import_stats"]) counts[s["id"]] = s["count"];
  EXPECT_EQ(counts["number_as_string"], 500 * 4);  // stream; ts and correlation; bytes
  EXPECT_EQ(counts["field_mistyped"], 500);        // "grid": "grid(100,)"
  EXPECT_EQ(counts["event_missing_field"], 250);   // no dur
  EXPECT_EQ(counts["invalid_utf8"], 250);          // the kept events named "k\xfe"
  EXPECT_EQ(counts["event_not_complete"], 500);
  EXPECT_EQ(run_cuprobe({"analyze", "--strict", data_path("hostile_fields.json.gz")}).exit_code, 1);
}

TEST(DiffCli, ReportsTheRatioAndWhatMoved) {
  auto r = run_cuprobe({"diff", "--json", data_path("mla_fp8pool_fullcast_small.json.gz"),
                        data_path("mla_fp8pool_gathercast_small.json.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "cuprobe.diff/1");
  double ratio = j["step_ms"]["ratio"];
  EXPECT_GT(ratio, 8.0);
  EXPECT_DOUBLE_EQ(ratio, j["step_ms"]["a"].get<double>() / j["step_ms"]["b"].get<double>());
  EXPECT_EQ(j["changes"][0]["name"], "copy_cast");
  auto text =
      run_cuprobe({"diff", data_path("tp2_mlp_decode_rank0.json.gz") + "," + data_path("tp2_mlp_decode_rank1.json.gz"),
                   data_path("tp2_mlp_decode_rank0.json.gz") + "," + data_path("tp2_mlp_decode_rank1.json.gz")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("1.03 ms -> 1.03 ms  (same)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("ranks paired by rank id"), std::string::npos) << text.out;
  // B against A in words, the larger time over the smaller, with both times.
  auto worded = run_cuprobe(
      {"diff", data_path("mla_fp8pool_gathercast_small.json.gz"), data_path("mla_fp8pool_fullcast_small.json.gz")});
  EXPECT_NE(worded.out.find("0.16 ms -> 1.56 ms  (9.6\u00d7 slower)"), std::string::npos) << worded.out;
  EXPECT_EQ(run_cuprobe({"diff", "only_one.json"}).exit_code, 2);
}

}  // namespace
}  // namespace cuprobe::test
