// The real Prometheus server (Debian package `prometheus`) scrapes `cuprobe
// exporter` (fake NVML, synthetic PM backend) every 500 ms; the test asks
// Prometheus' HTTP API for the series and labels a dashboard would use.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/background_process.h"
#include "support/fake_gpu_env.h"
#include "support/run_cuprobe.h"
#include "support/stalled_clients.h"
#include "support/test_paths.h"

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

// Prometheus scraping job "cuprobe" at 127.0.0.1:TARGET_PORT every 500 ms (its timeout is then
// 500 ms too), with its files in DIR; *port is where its HTTP API listens.
std::unique_ptr<BackgroundProcess> start_prometheus(const std::string& dir, int target_port, int* port) {
  {
    std::ofstream config(dir + "/prometheus.yml");
    config << "global:\n  scrape_interval: 500ms\n  evaluation_interval: 500ms\n"
           << "scrape_configs:\n  - job_name: cuprobe\n    static_configs:\n      - targets: ['127.0.0.1:"
           << target_port << "']\n";
  }
  *port = free_tcp_port();
  return std::make_unique<BackgroundProcess>(
      kPrometheus,
      std::vector<std::string>{"--config.file=" + dir + "/prometheus.yml", "--storage.tsdb.path=" + dir + "/data",
                               "--web.listen-address=127.0.0.1:" + std::to_string(*port)},
      dir + "/prometheus");
}

// `cuprobe exporter` on a free port (*port) with the fake GPUs, its logs in DIR.
std::unique_ptr<BackgroundProcess> start_exporter(const std::string& dir, int* port) {
  *port = free_tcp_port();
  return std::make_unique<BackgroundProcess>(
      CUPROBE_BINARY, std::vector<std::string>{"exporter", "--listen", "127.0.0.1:" + std::to_string(*port)},
      dir + "/exporter", fake_gpu_env());
}

TEST(PrometheusServer, ScrapesTheExporterSeriesAndLabels) {
  if (access(kPrometheus, X_OK) != 0) GTEST_SKIP() << "prometheus not installed (Debian package prometheus)";
  std::string dir = temp_dir();
  int exporter_port = 0;
  auto exporter_process = start_exporter(dir, &exporter_port);
  BackgroundProcess& exporter = *exporter_process;
  int prom_port = 0;
  auto prometheus_process = start_prometheus(dir, exporter_port, &prom_port);
  BackgroundProcess& prometheus = *prometheus_process;
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

// Issue 23: twenty half-sent requests delayed /metrics by 100 s. Here 300 sockets hold
// "GET /metrics HTTP/1.1\r\n" open (reopened as the exporter closes them at their deadline or
// to make room) while Prometheus scrapes every 500 ms: every scrape succeeds within its 500 ms
// timeout, and direct scrapes answer within a second.
TEST(PrometheusServer, ScrapesOnTimeWhileHundredsOfSocketsStall) {
  if (access(kPrometheus, X_OK) != 0) GTEST_SKIP() << "prometheus not installed (Debian package prometheus)";
  std::string dir = temp_dir();
  int exporter_port = 0;
  auto exporter_process = start_exporter(dir, &exporter_port);
  BackgroundProcess& exporter = *exporter_process;
  int status = 0;
  for (int i = 0; i < 200 && status != 200; ++i) {
    http_get(exporter_port, "/healthz", "", &status);
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(status, 200) << exporter.err();
  StalledClients stalled(exporter_port, 300, true);
  ASSERT_EQ(stalled.connected(), 300u);
  int prom_port = 0;
  auto prometheus = start_prometheus(dir, exporter_port, &prom_port);
  ASSERT_EQ(wait_for(prom_port, "up{job=\"cuprobe\"} == 1", 1).size(), 1u) << prometheus->err() << exporter.err();

  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(6);
  double slowest = 0;
  int direct = 0;
  while (std::chrono::steady_clock::now() < until) {
    auto start = std::chrono::steady_clock::now();
    std::string page = http_get(exporter_port, "/metrics", "", &status);
    slowest = std::max(slowest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    EXPECT_EQ(status, 200);
    EXPECT_NE(page.find("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"), std::string::npos);
    ++direct;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  EXPECT_GE(direct, 10);
  EXPECT_LT(slowest, 1.0);

  auto value = [&](const std::string& promql) {
    auto r = query(prom_port, promql);
    return r.size() == 1 ? std::stod(r[0]["value"][1].get<std::string>()) : -1.0;
  };
  EXPECT_GE(value("count_over_time(up{job=\"cuprobe\"}[6s])"), 8) << "Prometheus scraped all along";
  EXPECT_EQ(value("min_over_time(up{job=\"cuprobe\"}[6s])"), 1) << "no scrape failed or timed out";
  double longest = value("max_over_time(scrape_duration_seconds{job=\"cuprobe\"}[6s])");
  EXPECT_GE(longest, 0);
  EXPECT_LT(longest, 0.5);
  EXPECT_GT(stalled.closed_by_server(), 300u) << "stalled sockets are closed, not held";
  EXPECT_EQ(prometheus->stop(SIGTERM, 10000), 0) << prometheus->err();
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
}

}  // namespace
}  // namespace cuprobe::test
