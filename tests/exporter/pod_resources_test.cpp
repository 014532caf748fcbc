// The kubelet's pod-resources API: the response parsed (GPU and MIG UUIDs, other
// resources and unknown fields skipped), and real gRPC calls against the fake
// kubelet (python3-grpcio): an answer, an error status, silence, no socket.
#include "exporter/pod_resources.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>

#include "common/clock.h"
#include "common/error.h"
#include "support/error_text.h"
#include "support/fake_kubelet.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::string ld(int field, const std::string& payload) {
  std::string s(1, static_cast<char>(field << 3 | 2));
  s += static_cast<char>(payload.size());  // < 128 here
  return s + payload;
}

std::string devices(const std::string& resource, const std::vector<std::string>& ids) {
  std::string d = ld(1, resource);
  for (const auto& id : ids) d += ld(2, id);
  return d;
}

std::string pod(const std::string& name, const std::string& ns, const std::string& container, const std::string& devs) {
  return ld(1, ld(1, name) + ld(2, ns) + ld(3, ld(1, container) + ld(2, devs)));
}

TEST(PodResources, MapsGpuAndMigUuidsToTheirPods) {
  std::string m = pod("train-0", "ml", "worker", devices("nvidia.com/gpu", {"GPU-aaa", "GPU-bbb::2", "3"})) +
                  pod("infer-1", "serve", "vllm", devices("nvidia.com/mig-1g.18gb", {"MIG-ccc"})) +
                  pod("other", "x", "y", devices("example.com/fpga", {"GPU-ddd"}));
  auto pods = parse_pod_resources(m);
  ASSERT_EQ(pods.size(), 3u);
  EXPECT_EQ(pods["GPU-aaa"]->pod, "train-0");
  EXPECT_EQ(pods["GPU-aaa"]->pod_namespace, "ml");
  EXPECT_EQ(pods["GPU-aaa"]->container, "worker");
  EXPECT_EQ(pods["GPU-bbb"]->pod, "train-0");  // a time-slicing replica counts for its GPU
  EXPECT_EQ(pods["MIG-ccc"]->container, "vllm");
  EXPECT_EQ(pods.count("GPU-ddd"), 0u);
  EXPECT_TRUE(is_gpu_resource("nvidia.com/gpu"));
  EXPECT_FALSE(is_gpu_resource("nvidia.com/gpu.shared"));
}

TEST(PodResources, MalformedResponseIsAnError) {
  std::string m = pod("p", "n", "c", devices("nvidia.com/gpu", {"GPU-aaa"}));
  EXPECT_THROW(parse_pod_resources(m.substr(0, m.size() - 3)), Error);
}

// A length-delimited field of any size (a varint length).
std::string ld_any(int field, const std::string& payload) {
  std::string s(1, static_cast<char>(field << 3 | 2));
  for (std::size_t n = payload.size();; n >>= 7) {
    s += static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    if (n < 0x80) break;
  }
  return s + payload;
}

// Issue 39: a pod name of a megabyte copied into each of thousands of device entries cost gigabytes; names
// longer than Kubernetes allows, and more devices than a node holds, are refused with one line.
TEST(PodResources, NamesAndDeviceCountsAreBounded) {
  std::string ids;
  for (int i = 0; i < 3; ++i) ids += ld_any(2, "GPU-" + std::to_string(i));
  std::string long_name(1 << 20, 'p');
  std::string m = ld_any(1, ld_any(1, long_name) + ld_any(2, "ns") +
                                ld_any(3, ld_any(1, "c") + ld_any(2, ld_any(1, "nvidia.com/gpu") + ids)));
  EXPECT_EQ(test::error_text([&] { parse_pod_resources(m); }),
            "a pod name of 1048576 bytes (Kubernetes names are at most 253)");
  ids.clear();
  for (int i = 0; i < 5000; ++i) ids += ld_any(2, "GPU-" + std::to_string(i));
  m = ld_any(
      1, ld_any(1, "p") + ld_any(2, "ns") + ld_any(3, ld_any(1, "c") + ld_any(2, ld_any(1, "nvidia.com/gpu") + ids)));
  EXPECT_EQ(test::error_text([&] { parse_pod_resources(m); }), "more than 4096 GPU devices listed");
  std::string name_253(253, 'n');
  m = ld_any(1, ld_any(1, name_253) + ld_any(2, "ns") +
                    ld_any(3, ld_any(1, "c") + ld_any(2, ld_any(1, "nvidia.com/gpu") + ld_any(2, "GPU-x"))));
  EXPECT_EQ(parse_pod_resources(m)["GPU-x"]->pod, name_253);
}

// Issue 39 item 4: each container's labels are held once and its devices refer to them, so a reply
// of ~850 kB (4096 devices, names at the 253-byte limit) costs one copy of the names per container.
TEST(PodResources, LabelsAreHeldOncePerContainer) {
  std::string name(253, 'p'), ns(253, 'n');
  std::string ids, other;
  for (int i = 0; i < 4000; ++i) ids += ld_any(2, "GPU-" + std::string(200, 'u') + std::to_string(i));
  for (int i = 0; i < 96; ++i) other += ld_any(2, "MIG-" + std::to_string(i));
  std::string m = ld_any(
      1, ld_any(1, name) + ld_any(2, ns) +
             ld_any(3, ld_any(1, std::string(253, 'a')) + ld_any(2, ld_any(1, "nvidia.com/gpu") + ids)) +
             ld_any(3, ld_any(1, std::string(253, 'b')) + ld_any(2, ld_any(1, "nvidia.com/mig-1g.10gb") + other)));
  ASSERT_GT(m.size(), 800'000u);
  PodOfDevice pods = parse_pod_resources(m);
  ASSERT_EQ(pods.size(), 4096u);
  const PodRef* a = pods.begin()->second.get();  // a GPU- id, of container a
  std::set<const PodRef*> owners;
  for (const auto& [uuid, owner] : pods) owners.insert(owner.get());
  EXPECT_EQ(owners.size(), 2u);  // one per container, not one per device
  EXPECT_EQ(a->container, std::string(253, 'a'));
  EXPECT_EQ(pods.begin()->second.use_count(), 4000);
  EXPECT_EQ(pods["MIG-5"]->container, std::string(253, 'b'));
  EXPECT_EQ(pods["MIG-5"]->pod, name);
}

class PodResourcesGrpc : public ::testing::Test {
 protected:
  void SetUp() override {
    if (test::python_with_grpc().empty()) GTEST_SKIP() << "python3 cannot import grpc (Debian package python3-grpcio)";
    dir_ = test::temp_dir();
  }
  std::string dir_;
};

TEST_F(PodResourcesGrpc, ListsThePodsTheKubeletAnswers) {
  auto kubelet = test::start_fake_kubelet(dir_, "ok", {"GPU-1234=vllm-0/inference/server"});
  ASSERT_TRUE(kubelet);
  auto pods = list_pod_resources(test::fake_kubelet_socket(dir_));
  ASSERT_EQ(pods.size(), 1u) << kubelet->err();
  EXPECT_EQ(pods["GPU-1234"]->pod, "vllm-0");
  EXPECT_EQ(pods["GPU-1234"]->pod_namespace, "inference");
  EXPECT_EQ(pods["GPU-1234"]->container, "server");
  EXPECT_EQ(list_pod_resources(test::fake_kubelet_socket(dir_)).size(), 1u);  // again, a fresh connection
}

TEST_F(PodResourcesGrpc, ErrorStatusIsOneLine) {
  auto kubelet = test::start_fake_kubelet(dir_, "error");
  ASSERT_TRUE(kubelet);
  try {
    list_pod_resources(test::fake_kubelet_socket(dir_));
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("/v1.PodResourcesLister/List: grpc-status 7 PERMISSION_DENIED: no access for you"),
              std::string::npos)
        << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
}

TEST_F(PodResourcesGrpc, SilentKubeletMeetsTheDeadline) {
  auto kubelet = test::start_fake_kubelet(dir_, "hang");
  ASSERT_TRUE(kubelet);
  std::int64_t start = mono_ns();
  try {
    list_pod_resources(test::fake_kubelet_socket(dir_), 700);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no answer within 700 ms"), std::string::npos) << e.what();
  }
  std::int64_t took_ms = (mono_ns() - start) / 1'000'000;
  EXPECT_GE(took_ms, 600);
  EXPECT_LT(took_ms, 3000);
}

TEST(PodResources, MissingSocketIsOneLine) {
  try {
    list_pod_resources("/nonexistent/kubelet.sock", 500);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/kubelet.sock: /v1.PodResourcesLister/List: cannot connect"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cuprobe
