// `cuprobe sample`'s vital-sign columns and `--source dcgm=URL`, end to end without
// a GPU: the fake NVML and the synthetic PM backend (test-only environment), and a
// scripted dcgm-exporter.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "support/background_process.h"
#include "support/fake_gpu_env.h"
#include "support/run_cuprobe.h"
#include "support/scripted_server.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(SampleCli, VitalSignsBesideTheCounters) {
  std::string dir = temp_dir();
  BackgroundProcess sample(CUPROBE_BINARY, {"sample", "--duration", "400ms", "-q", "-o", dir + "/s.csv"},
                           dir + "/sample", fake_gpu_env());
  for (int i = 0; i < 200 && sample.running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_EQ(sample.stop(SIGKILL, 1000), 0) << sample.err();
  std::ifstream in(dir + "/s.csv");
  std::string header, line;
  std::getline(in, header);
  EXPECT_TRUE(contains(header, ",tensor_active_pct,")) << header;
  EXPECT_TRUE(contains(header,
                       ",power_w,sm_clock_mhz,mem_clock_mhz,temperature_c,memory_used_bytes,gpu_util_pct,"
                       "clock_event_reasons"))
      << header;
  bool gpu1 = false;
  while (std::getline(in, line)) {
    if (line.rfind("1,", 0) == 0) {
      gpu1 = true;
      EXPECT_TRUE(contains(line, ",250.5,1980,2619,41,2147483648,51,4")) << line;
    }
  }
  EXPECT_TRUE(gpu1);
}

TEST(SampleCli, ReadsCountersFromDcgmExporter) {
  ScriptedServer dcgm([](const ScriptedRequest& r) {
    if (r.path != "/metrics") return http_response(404, "", "text/plain");
    return http_response(200,
                         "# TYPE DCGM_FI_PROF_PIPE_TENSOR_ACTIVE gauge\n"
                         "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n\"} 0.25\n"
                         "DCGM_FI_PROF_SM_ACTIVE{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n\"} 0.5\n",
                         "text/plain");
  });
  std::string dir = temp_dir();
  BackgroundProcess sample(CUPROBE_BINARY,
                           {"sample", "--source", "dcgm=" + dcgm.url(), "--interval", "100ms", "--duration", "500ms",
                            "-q", "-o", dir + "/s.csv"},
                           dir + "/sample", fake_gpu_env());
  for (int i = 0; i < 200 && sample.running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_EQ(sample.stop(SIGKILL, 1000), 0) << sample.err();
  std::ifstream in(dir + "/s.csv");
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("gpu,start_ns,end_ns,sm_active_pct,tensor_active_pct,power_w,", 0), 0u) << header;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line.rfind("1,", 0), 0u) << line;
  // DCGM's ratios as percentages; NVML's vitals of the same GPU (DCGM numbers GPUs as NVML does).
  EXPECT_TRUE(contains(line, ",50,25,250.5,")) << line;
}

TEST(SampleCli, UnreachableDcgmExporterIsExit3) {
  auto r = run_cuprobe({"sample", "--source", "dcgm=http://127.0.0.1:1", "--duration", "1s"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(contains(r.err, "dcgm-exporter at http://127.0.0.1:1/metrics")) << r.err;
}

}  // namespace
}  // namespace cuprobe::test
