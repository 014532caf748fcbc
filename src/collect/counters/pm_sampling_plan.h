// How often the PM sampler decodes and how large its buffers are, from the
// sampling interval. Measured on the H200 (docs/validation.md, "sampler cost"):
// one `pipes` sample takes about 134 KB of hardware buffer and the per-TPC
// counters stream so fast that a 64 MiB buffer decoded every 500 ms or 1 s
// overflowed; a buffer that overflows stops delivering samples. Decoding every
// 50-100 ms into at least 64 MiB (two periods with room to spare) never lost one.
//
// The counter data image is decoded into across decodes and reset only when full
// (collect/counters/counter_image_cursor.h): a reset while a sample is still arriving
// costs that sample, so the image holds as many samples as CUPTI allows.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace cuprobe {

struct PmSamplingPlan {
  std::chrono::nanoseconds decode_period{};
  std::uint32_t max_samples = 0;  // the counter data image's capacity, kept across decodes
  std::size_t hardware_buffer_bytes = 0;
};

inline constexpr std::size_t kPmBytesPerSampleEstimate = 160u << 10;  // 134 KB measured, plus margin
inline constexpr std::size_t kPmMinHardwareBufferBytes = 64u << 20;
inline constexpr std::uint32_t kPmMaxImageSamples = 1024;  // CUPTI's limit on a counter data image

// `decode_period` / `hardware_buffer_bytes` of 0 choose; other values are kept.
PmSamplingPlan plan_pm_sampling(std::chrono::nanoseconds interval, std::chrono::nanoseconds decode_period = {},
                                std::size_t hardware_buffer_bytes = 0);

}  // namespace cuprobe
