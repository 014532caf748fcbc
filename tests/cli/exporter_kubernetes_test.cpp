// `cuprobe exporter --kubernetes` end to end: the fake NVML's two GPUs, the fake
// kubelet (tests/support/fake_kubelet.py, python3-grpcio) on a unix socket in
// the test's directory. The pod it names shows on its GPU's series; an error
// status or a silent kubelet is one stderr line and the exporter keeps serving.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "common/prometheus_text.h"
#include "support/background_process.h"
#include "support/fake_gpu_env.h"
#include "support/fake_kubelet.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

constexpr const char* kGpu1 = "GPU-fa4e0000-0000-0000-0000-000000000001";  // the fake NVML's second GPU

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

int count_lines_with(const std::string& text, const std::string& part) {
  int n = 0;
  for (std::size_t at = 0; (at = text.find(part, at)) != std::string::npos; at += part.size()) ++n;
  return n;
}

// Polls until `done(page, stderr)` or `seconds` pass; the last page.
template <typename Done>
std::string wait_until(BackgroundProcess& exporter, int port, int seconds, Done done) {
  std::string page;
  for (int i = 0; i < seconds * 20; ++i) {
    page = http_get(port, "/metrics");
    if (done(page, exporter.err())) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return page;
}

class ExporterKubernetes : public ::testing::Test {
 protected:
  void SetUp() override {
    if (python_with_grpc().empty()) GTEST_SKIP() << "python3 cannot import grpc (Debian package python3-grpcio)";
    dir_ = temp_dir();
  }
  std::unique_ptr<BackgroundProcess> start_exporter(const std::vector<std::string>& extra) {
    port_ = free_tcp_port();
    std::vector<std::string> args = {"exporter", "--listen", "127.0.0.1:" + std::to_string(port_)};
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<BackgroundProcess>(CUPROBE_BINARY, args, dir_ + "/exporter", fake_gpu_env());
  }
  std::string dir_;
  int port_ = 0;
};

TEST_F(ExporterKubernetes, LabelsTheGpuThePodHolds) {
  auto kubelet = start_fake_kubelet(dir_, "ok", {std::string(kGpu1) + "=vllm-0/inference/server"});
  ASSERT_TRUE(kubelet);
  auto exporter = start_exporter({"--kubernetes", "--pod-resources-socket", fake_kubelet_socket(dir_)});
  std::string page = wait_until(*exporter, port_, 15, [](const std::string& p, const std::string&) {
    return contains(p, "pod=\"vllm-0\"") && contains(p, "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"");
  });
  PrometheusPage p = parse_prometheus_text(page, "/metrics");
  int labelled = 0, power = 0;
  for (const auto& s : p.samples) {
    if (s.name != "DCGM_FI_DEV_POWER_USAGE") continue;
    ++power;
    const std::string* pod = s.label("pod");
    if (*s.label("UUID") == kGpu1) {
      ASSERT_TRUE(pod) << page;
      EXPECT_EQ(*pod, "vllm-0");
      EXPECT_EQ(*s.label("namespace"), "inference");
      EXPECT_EQ(*s.label("container"), "server");
      ++labelled;
    } else {
      EXPECT_TRUE(!pod || pod->empty()) << page;  // GPU 0 is no pod's
    }
  }
  EXPECT_EQ(power, 2) << page;
  EXPECT_EQ(labelled, 1) << page;
  EXPECT_TRUE(contains(page, "cuprobe_pod_resources_available{")) << page;
  EXPECT_EQ(exporter->stop(SIGTERM, 8000), 0) << exporter->err();
  EXPECT_TRUE(contains(exporter->err(), "kubernetes: pod-resources answered")) << exporter->err();
}

TEST_F(ExporterKubernetes, ErrorStatusIsOneLineAndNoLabels) {
  auto kubelet = start_fake_kubelet(dir_, "error");
  ASSERT_TRUE(kubelet);
  auto exporter = start_exporter({"--pod-resources-socket", fake_kubelet_socket(dir_)});  // implies --kubernetes
  std::string page = wait_until(*exporter, port_, 15, [](const std::string& p, const std::string& err) {
    return contains(err, "PERMISSION_DENIED") && contains(p, "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\"");
  });
  std::string err = exporter->err();
  EXPECT_EQ(count_lines_with(err, "kubernetes: "), 1) << err;
  EXPECT_TRUE(contains(err, "grpc-status 7 PERMISSION_DENIED: no access for you")) << err;
  EXPECT_FALSE(contains(page, "pod=\"")) << page;
  PrometheusPage p = parse_prometheus_text(page, "/metrics");
  auto errors = std::find_if(p.samples.begin(), p.samples.end(),
                             [](const PrometheusSample& s) { return s.name == "cuprobe_pod_lookup_errors_total"; });
  ASSERT_NE(errors, p.samples.end()) << page;
  EXPECT_GE(errors->value, 1);
  EXPECT_EQ(exporter->stop(SIGTERM, 8000), 0) << exporter->err();
}

TEST_F(ExporterKubernetes, SilentKubeletMeetsTheDeadlineWhileScrapesGoOn) {
  auto kubelet = start_fake_kubelet(dir_, "hang");
  ASSERT_TRUE(kubelet);
  std::string calls = fake_kubelet_socket(dir_) + ".calls";
  auto exporter = start_exporter({"--kubernetes", "--pod-resources-socket", fake_kubelet_socket(dir_)});
  // From the moment the kubelet holds the first call until the exporter gives up on it (5 s),
  // every scrape is answered promptly, and the vital signs are on the page.
  for (int i = 0; i < 400 && !std::filesystem::exists(calls); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(std::filesystem::exists(calls)) << exporter->err();
  int scrapes = 0, with_power = 0;
  auto slowest = std::chrono::milliseconds(0);
  for (int i = 0; i < 300 && !contains(exporter->err(), "no answer within"); ++i) {
    auto t0 = std::chrono::steady_clock::now();
    std::string page = http_get(port_, "/metrics");
    slowest =
        std::max(slowest, std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0));
    ++scrapes;
    with_power += contains(page, "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\"") ? 1 : 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_GE(scrapes, 5) << exporter->err();
  EXPECT_GE(with_power, 1) << "no scrape had the vital signs while the kubelet was silent";
  EXPECT_LT(slowest.count(), 2000) << "a scrape waited for the kubelet";
  EXPECT_EQ(count_lines_with(exporter->err(), "kubernetes: "), 1) << exporter->err();
  EXPECT_TRUE(contains(exporter->err(), "no answer within 5000 ms")) << exporter->err();
  EXPECT_EQ(exporter->stop(SIGTERM, 8000), 0) << exporter->err();
}

TEST(ExporterKubernetesSocket, MissingSocketIsOneLineAndTheExporterServes) {
  std::string dir = temp_dir();
  int port = free_tcp_port();
  BackgroundProcess exporter(CUPROBE_BINARY,
                             {"exporter", "--listen", "127.0.0.1:" + std::to_string(port), "--kubernetes",
                              "--pod-resources-socket", dir + "/absent.sock"},
                             dir + "/exporter", fake_gpu_env());
  std::string page;
  for (int i = 0; i < 200 && !(contains(exporter.err(), "cannot connect") && contains(page, "POWER_USAGE")); ++i) {
    page = http_get(port, "/metrics");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(count_lines_with(exporter.err(), "kubernetes: "), 1) << exporter.err();
  EXPECT_TRUE(contains(exporter.err(), "absent.sock: /v1.PodResourcesLister/List: cannot connect")) << exporter.err();
  EXPECT_TRUE(contains(page, "cuprobe_pod_resources_available{")) << page;
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
}

TEST(ExporterKubernetesSocket, BothFlagsAreAUsageError) {
  auto r = run_cuprobe({"exporter", "--kubernetes", "--no-kubernetes"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--kubernetes excludes --no-kubernetes")) << r.err;
}

TEST(ExporterKubernetesSocket, NoKubernetesLeavesThePodSeriesOut) {
  std::string dir = temp_dir();
  int port = free_tcp_port();
  BackgroundProcess exporter(CUPROBE_BINARY,
                             {"exporter", "--listen", "127.0.0.1:" + std::to_string(port), "--no-kubernetes"},
                             dir + "/exporter", fake_gpu_env());
  std::string page;
  for (int i = 0; i < 200 && !contains(page, "POWER_USAGE"); ++i) {
    page = http_get(port, "/metrics");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_FALSE(contains(page, "cuprobe_pod_")) << page;
  EXPECT_FALSE(contains(exporter.err(), "kubernetes")) << exporter.err();
  EXPECT_EQ(exporter.stop(SIGTERM, 5000), 0) << exporter.err();
}

}  // namespace
}  // namespace cuprobe::test
