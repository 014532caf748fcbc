#include "collect/counters/dcgm_sampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "collect/counters/sampler_source.h"
#include "common/error.h"
#include "support/scripted_server.h"

namespace cuprobe::test {
namespace {

// What dcgm-exporter serves with its dcp-metrics-included.csv (abridged), on two GPUs and a MIG slice.
std::string dcgm_page(double tensor0) {
  std::string labels0 =
      "gpu=\"0\",UUID=\"GPU-a\",pci_bus_id=\"00000000:18:00.0\",device=\"nvidia0\",modelName=\"NVIDIA H200\","
      "Hostname=\"n1\"";
  std::string labels1 =
      "gpu=\"1\",UUID=\"GPU-b\",pci_bus_id=\"00000000:2A:00.0\",device=\"nvidia1\",modelName=\"NVIDIA H200\","
      "Hostname=\"n1\"";
  return "# HELP DCGM_FI_DEV_SM_CLOCK SM clock frequency (in MHz).\n# TYPE DCGM_FI_DEV_SM_CLOCK gauge\n"
         "DCGM_FI_DEV_SM_CLOCK{" +
         labels0 +
         "} 1980\n"
         "# HELP DCGM_FI_PROF_PIPE_TENSOR_ACTIVE Ratio of cycles the tensor (HMMA) pipe is active.\n"
         "# TYPE DCGM_FI_PROF_PIPE_TENSOR_ACTIVE gauge\n"
         "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{" +
         labels0 + "} " + std::to_string(tensor0) +
         "\n"
         "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{" +
         labels1 +
         "} 0.010000\n"
         "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"1\",GPU_I_ID=\"3\",GPU_I_PROFILE=\"1g.18gb\"} 0.5\n"
         "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"99999999999999999999\"} 0.5\n"
         "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"x\"} 0.5\n"
         "# TYPE DCGM_FI_PROF_GR_ENGINE_ACTIVE gauge\n"
         "DCGM_FI_PROF_GR_ENGINE_ACTIVE{" +
         labels0 +
         "} 0.97\n"
         "# TYPE DCGM_FI_PROF_PCIE_TX_BYTES gauge\n"
         "DCGM_FI_PROF_PCIE_TX_BYTES{" +
         labels1 + "} 123456\n";
}

TEST(DcgmSampler, RowsFromAPage) {
  PrometheusPage page = parse_prometheus_text(dcgm_page(0.93), "dcgm");
  auto rows = dcgm_rows(page, {"tensor_active_pct", "gr_active_pct", "pcie_write_bytes_per_s"}, 1, 2);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].gpu, 0);
  EXPECT_DOUBLE_EQ(rows[0].values[0], 93);  // ratio → percent
  EXPECT_DOUBLE_EQ(rows[0].values[1], 97);
  EXPECT_TRUE(std::isnan(rows[0].values[2]));
  EXPECT_DOUBLE_EQ(rows[1].values[0], 1);  // the MIG slice's 0.5 is not the GPU's
  EXPECT_DOUBLE_EQ(rows[1].values[2], 123456);
  EXPECT_EQ(rows[1].start_ns, 1);
  EXPECT_EQ(rows[1].end_ns, 2);
}

TEST(DcgmSampler, ReadsAnEndpointEveryInterval) {
  ScriptedServer server([](const ScriptedRequest& r) {
    if (r.path != "/metrics") return http_response(404, "no", "text/plain");
    return http_response(200, dcgm_page(0.93), "text/plain; version=0.0.4");
  });
  SamplerConfig config;
  config.interval = std::chrono::milliseconds(50);
  auto sampler = open_dcgm_sampler(parse_http_url(server.url()), config);
  EXPECT_EQ(sampler->metric_names(),
            (std::vector<std::string>{"gr_active_pct", "tensor_active_pct", "pcie_write_bytes_per_s"}));
  EXPECT_EQ(sampler->gpus(), (std::vector<int>{0, 1}));
  sampler->start();
  std::vector<CounterRow> rows;
  for (int i = 0; i < 100 && rows.size() < 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (auto& r : sampler->drain()) rows.push_back(r);
  }
  sampler->stop();
  ASSERT_GE(rows.size(), 4u);
  EXPECT_DOUBLE_EQ(rows[0].values[1], 93);
  EXPECT_GT(rows[0].end_ns, rows[0].start_ns);
}

TEST(DcgmSampler, UnreachableOrEmptyEndpointsAreExit3) {
  SamplerConfig config;
  try {
    open_dcgm_sampler(parse_http_url("http://127.0.0.1:1"), config);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitCountersUnavailable);
    EXPECT_NE(std::string(e.what()).find("dcgm-exporter at http://127.0.0.1:1/metrics"), std::string::npos);
  }
  ScriptedServer plain([](const ScriptedRequest&) { return http_response(200, "up 1\n", "text/plain"); });
  try {
    open_dcgm_sampler(parse_http_url(plain.url()), config);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitCountersUnavailable);
    EXPECT_NE(std::string(e.what()).find("no profiling fields"), std::string::npos);
  }
  ScriptedServer broken([](const ScriptedRequest&) { return http_response(200, "m{a=\"x} 1\n", "text/plain"); });
  try {
    open_dcgm_sampler(parse_http_url(broken.url()), config);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("line 1: unterminated label value"), std::string::npos) << e.what();
  }
}

TEST(CounterSource, ParsesTheOption) {
  EXPECT_FALSE(parse_counter_source("cupti").dcgm);
  CounterSource d = parse_counter_source("dcgm=localhost:9400");
  EXPECT_TRUE(d.dcgm);
  EXPECT_EQ(d.dcgm_url.port, 9400);
  EXPECT_EQ(d.name(), "dcgm");
  for (const char* bad : {"dcgm=", "dcgm", "nvml", ""}) {
    try {
      parse_counter_source(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), kExitUsage);
    }
  }
}

}  // namespace
}  // namespace cuprobe::test
