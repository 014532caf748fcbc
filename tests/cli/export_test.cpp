#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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
  std::ifstream in(dir + "/trace.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto j = nlohmann::json::parse(ss.str());
  ASSERT_EQ(j["traceEvents"][0]["name"], "gemm_kernel");
  EXPECT_DOUBLE_EQ(j["traceEvents"][0]["dur"].get<double>(), 2.0);
}

TEST(ExportCli, WritesATrimmedChromeTraceOfAKinetoTrace) {
  std::string dir = temp_dir();
  auto r =
      run_cuprobe({"export", "--chrome", data_path("mla_fp8pool_fullcast_small.json.gz"), "-o", dir + "/trace.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(dir + "/trace.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto j = nlohmann::json::parse(ss.str());
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
