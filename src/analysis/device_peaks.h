// What a GPU can do at most: memory bandwidth and dense (no sparsity) tensor
// and vector FLOP/s per data type, from the vendors' datasheets (sources in
// docs/findings.md). Looked up by the device name a profile carries; `--peak`
// overrides or completes an entry. A GPU not in the table has no peaks: the
// work columns then show bytes and FLOPs but no share of a peak.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuprobe {

// Compute rates a peak can be given for. kFp32 is the non-tensor (CUDA core) rate.
enum class PeakDtype : std::uint8_t { kFp32, kTf32, kBf16, kFp16, kFp8, kFp4, kInt8 };
inline constexpr int kPeakDtypeCount = 7;
std::string_view peak_dtype_name(PeakDtype d);  // "fp32", "tf32", "bf16", "fp16", "fp8", "fp4", "int8"

struct DevicePeaks {
  std::string name;                   // the table's name ("H200 SXM"), "--peak" when only the flag gave them
  std::optional<double> memory_tbps;  // TB/s (1e12 bytes/s)
  std::optional<double> tflops[kPeakDtypeCount];  // dense TFLOP/s
  std::optional<double> tflops_for(PeakDtype d) const { return tflops[static_cast<int>(d)]; }
  bool empty() const;
};

// The table's entry for a device name ("NVIDIA H200", "NVIDIA H100 80GB HBM3",
// "AMD Instinct MI300X"...), case-insensitive; nullopt for a GPU not in it.
std::optional<DevicePeaks> peaks_for_device(std::string_view device_name);

// All entries, for docs and tests.
const std::vector<DevicePeaks>& device_peak_table();

// "--peak bw=4.8,bf16=989,fp8=1979": keys bw (TB/s) and the dtype names
// (TFLOP/s). Throws Error (exit code 2) on an unknown key or a bad number.
DevicePeaks parse_peak_overrides(std::string_view text);

// `base` (may be empty) with every value `overrides` sets replaced.
DevicePeaks apply_peak_overrides(std::optional<DevicePeaks> base, const DevicePeaks& overrides);

}  // namespace cuprobe
