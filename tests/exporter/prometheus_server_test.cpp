// The real Prometheus server (Debian package `prometheus`) scrapes `cuprobe
// exporter` (fake NVML, synthetic PM backend) every 500 ms; the test asks
// Prometheus' HTTP API for the series and labels a dashboard would use.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/background_process.h"
#include "support/fake_gpu_env.h"
#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

constexpr const char* kPrometheus = "/usr/bin/prometheus";

// Instant query; the result vector ([] while there is none).
nlohmann::json query(int port, const std::string& promql) {
  std::string path = "/api/v1/query?query=";
  for (char c : promql) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      path += c;
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
      path += buf;
    }
  }
  std::string body = http_get(port, path);
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || j.value("status", "") != "success") return nlohmann::json::array();
  return j["data"]["result"];
}

nlohmann::json wait_for(int port, const std::string& promql, std::size_t count) {
  nlohmann::json r = nlohmann::json::array();
  for (int i = 0; i < 300; ++i) {
    r = query(port, promql);
    if (r.size() >= count) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return r;
}

TEST(PrometheusServer, ScrapesTheExporterSeriesAndLabels) {
  if (access(kPrometheus, X_OK) != 0) GTEST_SKIP() << "prometheus not installed (Debian package prometheus)";
  std::string dir = temp_dir();
  int exporter_port = free_tcp_port();
  BackgroundProcess exporter(CUPROBE_BINARY, {"exporter", "--listen", "127.0.0.1:" + std::to_string(exporter_port)},
                             dir + "/exporter", fake_gpu_env());
  {
    std::ofstream config(dir + "/prometheus.yml");
    config << "global:\n  scrape_interval: 500ms\n  evaluation_interval: 500ms\n"
           << "scrape_configs:\n  - job_name: cuprobe\n    static_configs:\n      - targets: ['127.0.0.1:"
           << exporter_port << "']\n";
  }
  int prom_port = free_tcp_port();
  BackgroundProcess prometheus(kPrometheus,
                               {"--config.file=" + dir + "/prometheus.yml", "--storage.tsdb.path=" + dir + "/data",
                                "--web.listen-address=127.0.0.1:" + std::to_string(prom_port)},
                               dir + "/prometheus");
  auto tensor = wait_for(prom_port, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", 2);
  ASSERT_EQ(tensor.size(), 2u) << prometheus.err() << exporter.err();
  for (const auto& s : tensor) {
    const auto& m = s["metric"];
    for (const char* l : {"gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname", "job", "instance"}) {
      EXPECT_TRUE(m.contains(l)) << l << " " << m.dump();
    }
    double v = std::stod(s["value"][1].get<std::string>());
    EXPECT_DOUBLE_EQ(v, m["gpu"] == "0" ? 0.425 : 0.435);
  }
  auto power = wait_for(prom_port, "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\"}", 1);
  ASSERT_EQ(power.size(), 1u);
  EXPECT_EQ(power[0]["value"][1], "250.5");
  auto hmma = wait_for(prom_port, "cuprobe_counters_available{reason=\"ok\"} == 1", 2);
  EXPECT_EQ(hmma.size(), 2u);
  auto throttled = wait_for(prom_port, "DCGM_FI_DEV_CLOCKS_EVENT_REASONS == 4", 1);
  ASSERT_EQ(throttled.size(), 1u);
  EXPECT_EQ(throttled[0]["metric"]["gpu"], "1");
  auto up = wait_for(prom_port, "up{job=\"cuprobe\"} == 1", 1);
  EXPECT_EQ(up.size(), 1u);
  EXPECT_EQ(prometheus.stop(SIGTERM, 10000), 0) << prometheus.err();
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
}

}  // namespace
}  // namespace cuprobe::test
