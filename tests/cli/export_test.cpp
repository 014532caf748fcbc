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
