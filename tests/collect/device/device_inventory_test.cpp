#include "collect/device/device_inventory.h"

#include <gtest/gtest.h>

#include "report/devices_report.h"

namespace cuprobe::test {
namespace {

DevicesReport two_gpus() {
  DevicesReport r;
  r.driver_version = "580.159.04";
  r.cuda_driver_version = 13000;
  DeviceReport a;
  a.index = 0;
  a.name = "NVIDIA H200";
  a.chip = "GH100";
  a.sm_count = 132;
  a.compute_capability_major = 9;
  a.compute_capability_minor = 0;
  a.memory_total = 143771ull << 20;
  a.memory_used = 3ull << 20;
  a.counters = CounterStatus::kOk;
  DeviceReport b = a;
  b.index = 1;
  b.memory_used = 70000ull << 20;
  b.processes = {{4242, 69000ull << 20, "python3"}};
  b.counters = CounterStatus::kInsufficientPrivileges;
  b.counters_reason = "GPU 1 (GH100): performance counters are restricted to admin users";
  r.gpus = {a, b};
  return r;
}

TEST(DeviceInventory, JsonSchemaAndFields) {
  auto j = devices_json(two_gpus());
  EXPECT_EQ(j["schema"], "cuprobe.devices/1");
  ASSERT_EQ(j["gpus"].size(), 2u);
  EXPECT_EQ(j["gpus"][0]["sm_count"], 132);
  EXPECT_EQ(j["gpus"][0]["compute_capability"], "9.0");
  EXPECT_EQ(j["gpus"][0]["counters"]["readable"], true);
  EXPECT_TRUE(j["gpus"][0]["counters"]["reason"].is_null());
  EXPECT_EQ(j["gpus"][1]["counters"]["status"], "insufficient_privileges");
  EXPECT_EQ(j["gpus"][1]["processes"][0]["pid"], 4242);
  EXPECT_EQ(j["gpus"][1]["processes"][0]["name"], "python3");
  EXPECT_FALSE(j.contains("error"));
}

TEST(DeviceInventory, TextSaysWhyCountersAreNotReadable) {
  std::string t = format_devices(two_gpus());
  EXPECT_NE(t.find("GPU 0  NVIDIA H200  chip GH100"), std::string::npos);
  EXPECT_NE(t.find("counters: readable"), std::string::npos);
  EXPECT_NE(t.find("counters: NOT readable: GPU 1 (GH100): performance counters are restricted"), std::string::npos);
  EXPECT_NE(t.find("process 4242 python3"), std::string::npos);
}

TEST(DeviceInventory, RequireIdleFlagsProcessesAndMemory) {
  auto r = two_gpus();
  IdleCheck c = check_idle(r, 256ull << 20);
  EXPECT_FALSE(c.idle);
  ASSERT_EQ(c.reasons.size(), 1u);
  EXPECT_NE(c.reasons[0].find("GPU 1 busy: 1 process(es) (4242 python3)"), std::string::npos);
  r.gpus[1].processes.clear();
  c = check_idle(r, 256ull << 20);
  EXPECT_FALSE(c.idle);
  EXPECT_NE(c.reasons[0].find("memory used"), std::string::npos);
  EXPECT_TRUE(check_idle(r, 80000ull << 20).idle);
}

TEST(DeviceInventory, NoGpuIsNeverIdle) {
  DevicesReport r;
  r.error = "no CUDA GPU visible";
  r.error_status = CounterStatus::kNoGpu;
  EXPECT_FALSE(check_idle(r, 0).idle);
  auto j = devices_json(r);
  EXPECT_EQ(j["error_status"], "no_gpu");
  EXPECT_TRUE(j["gpus"].empty());
}

}  // namespace
}  // namespace cuprobe::test
