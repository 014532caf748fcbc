#include "analysis/device_peaks.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace cuprobe {
namespace {

TEST(DevicePeaks, NamesAsDriversReportThemFindTheirEntry) {
  struct Case {
    const char* device;
    const char* entry;
  } cases[] = {
      {"NVIDIA H200", "H200 SXM"},
      {"NVIDIA H200 NVL", "H200 NVL"},
      {"NVIDIA H100 80GB HBM3", "H100 SXM"},
      {"NVIDIA H100 PCIe", "H100 PCIe"},
      {"NVIDIA H100 NVL", "H100 NVL"},
      {"NVIDIA GH200 480GB", "GH200 (H100 96GB)"},
      {"NVIDIA B200", "B200 (HGX)"},
      {"NVIDIA GB200", "GB200 (per GPU)"},
      {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX PRO 6000 Blackwell"},
      {"NVIDIA GeForce RTX 5090", "GeForce RTX 5090"},
      {"NVIDIA L40S", "L40S"},
      {"NVIDIA A100-SXM4-40GB", "A100 40GB"},
      {"NVIDIA A100-SXM4-80GB", "A100 80GB SXM"},
      {"NVIDIA A100 80GB PCIe", "A100 80GB PCIe"},
      {"AMD Instinct MI300X", "Instinct MI300X"},
      {"AMD Instinct MI325X", "Instinct MI325X"},
      {"AMD Instinct MI355X", "Instinct MI355X"},
  };
  for (const auto& c : cases) {
    auto p = peaks_for_device(c.device);
    ASSERT_TRUE(p) << c.device;
    EXPECT_EQ(p->name, c.entry) << c.device;
    EXPECT_TRUE(p->memory_tbps) << c.device;
  }
}

TEST(DevicePeaks, H200Numbers) {
  auto p = peaks_for_device("NVIDIA H200");
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(*p->memory_tbps, 4.8);
  EXPECT_DOUBLE_EQ(*p->tflops_for(PeakDtype::kBf16), 989.5);
  EXPECT_DOUBLE_EQ(*p->tflops_for(PeakDtype::kFp8), 1979);
  EXPECT_FALSE(p->tflops_for(PeakDtype::kFp4));  // Hopper has no FP4 tensor cores
}

TEST(DevicePeaks, AnUnknownGpuHasNoPeaks) {
  EXPECT_FALSE(peaks_for_device("NVIDIA GeForce GTX 1080"));
  EXPECT_FALSE(peaks_for_device(""));
}

TEST(DevicePeaks, PeakFlagOverridesAndCompletes) {
  DevicePeaks o = parse_peak_overrides("bw=3.2,fp4=5000");
  EXPECT_DOUBLE_EQ(*o.memory_tbps, 3.2);
  DevicePeaks p = apply_peak_overrides(peaks_for_device("NVIDIA H200"), o);
  EXPECT_DOUBLE_EQ(*p.memory_tbps, 3.2);
  EXPECT_DOUBLE_EQ(*p.tflops_for(PeakDtype::kFp4), 5000);
  EXPECT_DOUBLE_EQ(*p.tflops_for(PeakDtype::kBf16), 989.5);
  EXPECT_EQ(p.name, "H200 SXM with --peak");
  DevicePeaks alone = apply_peak_overrides(std::nullopt, parse_peak_overrides("bf16=100"));
  EXPECT_EQ(alone.name, "--peak");
  EXPECT_FALSE(alone.memory_tbps);
}

TEST(DevicePeaks, BadPeakFlagsAreUsageErrors) {
  for (const char* bad : {"", "bw", "bw=", "bw=-1", "bw=abc", "fp9=3", "bw=1,,bf16=2", "bw=inf"}) {
    try {
      parse_peak_overrides(bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), kExitUsage) << bad;
    }
  }
}

}  // namespace
}  // namespace cuprobe
