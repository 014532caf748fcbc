// How often the PM sampler decodes and how large its buffers are, from the
// sampling interval. Measured on the H200 (docs/validation.md, "sampler cost"):
// with `triage` each cuptiPmSamplingDecodeData call costs 10-27 ms of CPU whatever
// the number of samples it returns, and one sample takes about 134 KB of hardware
// buffer; a buffer that overflows stops delivering samples. So: few decode calls,
// and a buffer that holds two decode periods with room to spare.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace cuprobe {

struct PmSamplingPlan {
  std::chrono::nanoseconds decode_period{};
  std::uint32_t max_samples = 0;           // per decode call (the counter data image's capacity)
  std::size_t hardware_buffer_bytes = 0;
};

inline constexpr std::size_t kPmBytesPerSampleEstimate = 160u << 10;  // 134 KB measured, plus margin
inline constexpr std::size_t kPmMinHardwareBufferBytes = 64u << 20;

// `decode_period` / `hardware_buffer_bytes` of 0 choose; other values are kept.
PmSamplingPlan plan_pm_sampling(std::chrono::nanoseconds interval, std::chrono::nanoseconds decode_period = {},
                                std::size_t hardware_buffer_bytes = 0);

}  // namespace cuprobe
