// The exporter's NVML health, XID and MIG reads against the fake NVML.
#include "collect/device/nvml_health.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "collect/device/nvml_mig.h"
#include "collect/device/nvml_xid_watcher.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

constexpr double kGiB = 1ull << 30;

TEST(NvmlHealth, ReadsDcgmDefaultFieldsFromTheFake) {
  Nvml nvml(CUPROBE_FAKE_NVML);
  ASSERT_TRUE(nvml.ok()) << nvml.error();
  EXPECT_TRUE(nvml.missing_functions().empty());
  NvmlHealth h;
  ASSERT_TRUE(read_nvml_health(nvml, 1, h));
  EXPECT_DOUBLE_EQ(h.memory_reserved_bytes, 0.5 * kGiB);
  EXPECT_DOUBLE_EQ(h.memory_free_bytes, 141 * kGiB - 2 * kGiB - 0.5 * kGiB);
  EXPECT_DOUBLE_EQ(h.memory_free_bytes + h.memory_used_bytes + h.memory_reserved_bytes, h.memory_total_bytes);
  EXPECT_DOUBLE_EQ(h.memory_temp_c, 56);
  EXPECT_DOUBLE_EQ(h.mem_copy_util_pct, 10);
  EXPECT_DOUBLE_EQ(h.enc_util_pct, 0);
  EXPECT_DOUBLE_EQ(h.dec_util_pct, 3);
  EXPECT_GE(h.energy_mj, 1e6);
  EXPECT_DOUBLE_EQ(h.pcie_replays, 0);
  EXPECT_DOUBLE_EQ(h.nvlink_kib, 4096);
  EXPECT_DOUBLE_EQ(h.correctable_remapped_rows, 1);
  EXPECT_DOUBLE_EQ(h.uncorrectable_remapped_rows, 0);
  EXPECT_DOUBLE_EQ(h.row_remap_failure, 0);
  EXPECT_TRUE(std::isnan(h.vgpu_license)) << "bare metal: not applicable, so absent";
  EXPECT_DOUBLE_EQ(nvml_health_value(h, "dec_util_pct"), 3);
  EXPECT_TRUE(std::isnan(nvml_health_value(h, "power_w")));
  EXPECT_FALSE(read_nvml_health(nvml, 2, h));
}

TEST(NvmlHealth, UnsupportedFieldsStayNaNNeverZero) {
  setenv("CUPROBE_FAKE_NVML_NO_HEALTH", "1", 1);
  Nvml nvml(CUPROBE_FAKE_NVML);
  NvmlHealth h;
  ASSERT_TRUE(read_nvml_health(nvml, 0, h));
  unsetenv("CUPROBE_FAKE_NVML_NO_HEALTH");
  EXPECT_TRUE(std::isnan(h.energy_mj));
  EXPECT_TRUE(std::isnan(h.pcie_replays));
  EXPECT_TRUE(std::isnan(h.memory_temp_c));
  EXPECT_TRUE(std::isnan(h.nvlink_kib));
  EXPECT_TRUE(std::isnan(h.correctable_remapped_rows));
  EXPECT_FALSE(std::isnan(h.memory_free_bytes));
}

TEST(NvmlHealth, VgpuGuestReportsItsLicense) {
  setenv("CUPROBE_FAKE_NVML_VGPU", "1", 1);
  Nvml nvml(CUPROBE_FAKE_NVML);
  NvmlHealth h;
  ASSERT_TRUE(read_nvml_health(nvml, 0, h));
  unsetenv("CUPROBE_FAKE_NVML_VGPU");
  EXPECT_DOUBLE_EQ(h.vgpu_license, 1);
}

TEST(NvmlMig, ListsGpuInstancesWithDcgmProfileNames) {
  setenv("CUPROBE_FAKE_NVML_MIG", "0", 1);
  Nvml nvml(CUPROBE_FAKE_NVML);
  auto on = nvml_gpu_instances(nvml, 0);
  auto off = nvml_gpu_instances(nvml, 1);
  unsetenv("CUPROBE_FAKE_NVML_MIG");
  ASSERT_EQ(on.size(), 2u);
  EXPECT_EQ(on[0].id, 9u);
  EXPECT_EQ(on[0].profile, "1g.18gb");
  EXPECT_EQ(on[1].id, 2u);
  EXPECT_EQ(on[1].profile, "3g.71gb");
  EXPECT_EQ(on[0].uuid.rfind("MIG-", 0), 0u) << on[0].uuid;
  EXPECT_DOUBLE_EQ(on[0].memory_total_bytes, 18 * kGiB);
  EXPECT_DOUBLE_EQ(on[0].memory_free_bytes + on[0].memory_used_bytes + on[0].memory_reserved_bytes, 18 * kGiB);
  EXPECT_TRUE(off.empty());
  EXPECT_EQ(mig_profile_from_name("NVIDIA H100 80GB HBM3 MIG 1g.10gb"), "1g.10gb");
  EXPECT_EQ(mig_profile_from_name("7g.141gb"), "7g.141gb");
}

TEST(NvmlXid, KeepsTheLastXidAndCountsThemPerGpu) {
  setenv("CUPROBE_FAKE_NVML_XID", "1:79", 1);
  Nvml nvml(CUPROBE_FAKE_NVML);
  NvmlXidWatcher watcher(nvml);
  ASSERT_EQ(watcher.start(), "");
  XidState s;
  for (int i = 0; i < 100 && (!watcher.state(1, s) || s.count < 1); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  unsetenv("CUPROBE_FAKE_NVML_XID");
  ASSERT_TRUE(watcher.state(1, s));
  EXPECT_DOUBLE_EQ(s.last, 79);
  EXPECT_DOUBLE_EQ(s.count, 1);
  ASSERT_TRUE(watcher.state(0, s));
  EXPECT_DOUBLE_EQ(s.last, 0) << "no XID yet: 0, as dcgm-exporter reports it";
  EXPECT_DOUBLE_EQ(s.count, 0);
  EXPECT_FALSE(watcher.state(5, s));
  watcher.stop();
}

}  // namespace
}  // namespace cuprobe::test
