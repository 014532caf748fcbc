// `cuprobe exporter` end to end without a GPU: with the fake NVML and the
// synthetic PM backend (test-only environment), and with nothing at all.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "collect/counters/counter_columns.h"
#include "common/prometheus_text.h"
#include "support/background_process.h"
#include "support/fake_gpu_env.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// promtool's lint on a DCGM counter's name (dcgm-exporter's names have no _total suffix, and
// one says "COUNTER").
bool dcgm_counter_complaint(const std::string& line) {
  return line.starts_with("DCGM_FI_") && (contains(line, "counter metrics should have \"_total\" suffix") ||
                                          contains(line, "metric name should not include type 'counter'"));
}

// GETs /metrics until `series` shows up (or 10 s pass); the last page.
// The page once it holds every one of `series` (each GPU's samples arrive on their own).
std::string wait_for_series(int port, const std::vector<std::string>& series) {
  std::string page;
  for (int i = 0; i < 200; ++i) {
    page = http_get(port, "/metrics");
    if (std::all_of(series.begin(), series.end(), [&](const std::string& s) { return contains(page, s); })) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return page;
}

TEST(ExporterCli, UsageErrorsExitTwo) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"exporter", "--listen", "9401"},
                                                                {"exporter", "--listen", "h:70000"},
                                                                {"exporter", "--source", "nvml"},
                                                                {"exporter", "--interval", "20s"},
                                                                {"exporter", "--window", "0s"},
                                                                {"exporter", "--preset", "bogus"}}) {
    auto r = run_cuprobe(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args[2] << ": " << r.err;
    EXPECT_FALSE(r.err.empty());
  }
}

TEST(ExporterCli, ServesFakeGpusAndStopsOnSigterm) {
  std::string dir = temp_dir();
  int port = free_tcp_port();
  BackgroundProcess exporter(CUPROBE_BINARY, {"exporter", "--listen", "127.0.0.1:" + std::to_string(port)},
                             dir + "/exporter", fake_gpu_env());
  std::string page =
      wait_for_series(port, {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"0\"", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"1\"",
                             "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"", "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\""});
  PrometheusPage p = parse_prometheus_text(page, "/metrics");
  int tensor = 0, power = 0;
  for (const auto& s : p.samples) {
    if (s.name == "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE" && *s.label("gpu") == "1") {
      ++tensor;
      EXPECT_DOUBLE_EQ(s.value, 0.435);
      EXPECT_EQ(*s.label("UUID"), "GPU-fa4e0000-0000-0000-0000-000000000001");
      EXPECT_EQ(*s.label("modelName"), "NVIDIA H200 (fake)");
    }
    if (s.name == "DCGM_FI_DEV_POWER_USAGE") {
      ++power;
      EXPECT_TRUE(s.value == 150.5 || s.value == 250.5) << s.value;
    }
  }
  EXPECT_EQ(tensor, 1) << page;
  EXPECT_EQ(power, 2) << page;
  int status = 0;
  EXPECT_TRUE(contains(http_get(port, "/healthz", "", &status), "ok\n"));
  EXPECT_EQ(status, 200);
  http_get(port, "/nope", "", &status);
  EXPECT_EQ(status, 404);
  std::string om = http_get(port, "/metrics", "application/openmetrics-text; version=1.0.0");
  EXPECT_TRUE(contains(om, "# EOF\n"));
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
  EXPECT_TRUE(contains(exporter.err(), "stopped by SIGTERM")) << exporter.err();
}

TEST(ExporterCli, BusyCountersSayWhyWhileNvmlFlows) {
  std::string dir = temp_dir();
  int port = free_tcp_port();
  auto env = fake_gpu_env();
  env.push_back("CUPROBE_TEST_PM_BUSY=1");
  BackgroundProcess exporter(CUPROBE_BINARY, {"exporter", "--listen", "127.0.0.1:" + std::to_string(port)},
                             dir + "/exporter", env);
  std::string page = wait_for_series(port, {"DCGM_FI_DEV_POWER_USAGE"});
  EXPECT_TRUE(contains(page, "reason=\"busy\"} 0\n")) << page;
  EXPECT_FALSE(contains(page, "DCGM_FI_PROF_")) << page;
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0);
}

TEST(ExporterCli, StartsWithoutAGpuOrDriverAndSaysSo) {
  std::string dir = temp_dir();
  int port = free_tcp_port();
  BackgroundProcess exporter(CUPROBE_BINARY, {"exporter", "--listen", "127.0.0.1:" + std::to_string(port)},
                             dir + "/exporter", no_gpu_env());
  std::string page = wait_for_series(port, {"cuprobe_counters_available"});
  EXPECT_TRUE(contains(page, "cuprobe_nvml_available{reason=\"unavailable\"")) << page;
  EXPECT_TRUE(contains(page, "cuprobe_gpus{")) << page;
  EXPECT_TRUE(contains(page, "cuprobe_counters_available{source=\"cupti\",reason=\"")) << page;
  EXPECT_FALSE(contains(page, "reason=\"ok\"} 1")) << page;
  EXPECT_EQ(exporter.stop(SIGINT, 5000), 0) << exporter.err();
}

TEST(ExporterCli, PromtoolAcceptsThePage) {
  if (access("/usr/bin/promtool", X_OK) != 0) GTEST_SKIP() << "promtool not installed (Debian package prometheus)";
  std::string dir = temp_dir();
  int port = free_tcp_port();
  BackgroundProcess exporter(CUPROBE_BINARY, {"exporter", "--listen", "127.0.0.1:" + std::to_string(port)},
                             dir + "/exporter", fake_gpu_env());
  std::string page =
      wait_for_series(port, {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"0\"", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"1\"",
                             "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"", "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\""});
  auto r = run_program("/usr/bin/promtool", {"check", "metrics"}, page);
  // promtool's linter asks for snake_case label names and for a "_total" suffix on counters;
  // dcgm-exporter's modelName label and its counters' names (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION,
  // ..., kept so that dashboards and alerts built for DCGM work) are the things it may say.
  for (const std::string& line : lines_of(r.out + r.err)) {
    EXPECT_TRUE(contains(line, "label names should be written in 'snake_case' not 'camelCase'") ||
                dcgm_counter_complaint(line))
        << line;
  }
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.exit_code << r.out << r.err;
  // With the camelCase label renamed, only DCGM's counter names are left to complain about.
  std::string renamed = page;
  for (std::size_t at; (at = renamed.find("modelName=")) != std::string::npos;) renamed.replace(at, 9, "model_name");
  auto clean = run_program("/usr/bin/promtool", {"check", "metrics"}, renamed);
  for (const std::string& line : lines_of(clean.out + clean.err)) EXPECT_TRUE(dcgm_counter_complaint(line)) << line;
  // And without DCGM's counters, nothing at all.
  std::string stripped;
  for (const std::string& line : lines_of(renamed)) {
    bool dcgm_counter = false;
    for (const CounterColumn& c : kCounterColumns) {
      dcgm_counter |=
          c.series_type == "counter" && c.series.starts_with("DCGM_") && contains(line, std::string(c.series));
    }
    if (!dcgm_counter) stripped += line + "\n";
  }
  auto strict = run_program("/usr/bin/promtool", {"check", "metrics"}, stripped);
  EXPECT_EQ(strict.exit_code, 0) << strict.out << strict.err;
}

}  // namespace
}  // namespace cuprobe::test
