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

// Instant query: Prometheus' whole answer (null when it did not answer JSON).
nlohmann::json query_answer(int port, const std::string& promql) {
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
  auto j = nlohmann::json::parse(http_get(port, path), nullptr, false);
  return j.is_discarded() ? nlohmann::json() : j;
}

// The result vector ([] while there is none).
nlohmann::json query(int port, const std::string& promql) {
  nlohmann::json j = query_answer(port, promql);
  if (!j.is_object() || j.value("status", "") != "success") return nlohmann::json::array();
  return j["data"]["result"];
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size())
    s.replace(at, from.size(), to);
  return s;
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
  // Every query of the Grafana dashboard (docs/grafana/) is valid PromQL to this Prometheus.
  std::ifstream dash_file(std::string(CUPROBE_SOURCE_DIR) + "/docs/grafana/cuprobe-gpus.json");
  auto dashboard = nlohmann::json::parse(dash_file, nullptr, false);
  ASSERT_FALSE(dashboard.is_discarded());
  int queries = 0;
  for (const auto& panel : dashboard["panels"]) {
    for (const auto& target : panel.value("targets", nlohmann::json::array())) {
      std::string expr = replace_all(replace_all(target["expr"].get<std::string>(), "$host", ".*"), "$gpu", ".*");
      auto answer = query_answer(prom_port, expr);
      ASSERT_TRUE(answer.is_object()) << expr;
      EXPECT_EQ(answer.value("status", ""), "success") << expr << ": " << answer.dump();
      ++queries;
    }
  }
  EXPECT_GE(queries, 15);
  EXPECT_EQ(prometheus.stop(SIGTERM, 10000), 0) << prometheus.err();
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
}

}  // namespace
}  // namespace cuprobe::test
