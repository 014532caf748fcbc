#include "collect/counters/pm_sampling_plan.h"

#include <algorithm>

namespace cuprobe {

PmSamplingPlan plan_pm_sampling(std::chrono::nanoseconds interval, std::chrono::nanoseconds decode_period,
                                std::size_t hardware_buffer_bytes) {
  using std::chrono::milliseconds;
  PmSamplingPlan plan;
  if (decode_period.count() > 0) {
    plan.decode_period = decode_period;
  } else {
    // Every 50-100 ms, to drain the hardware buffer: with the per-TPC counters (`pipes`) the
    // hardware writes so fast that a 64 MiB buffer overflowed when decoded only every 500 ms
    // or 1 s (H200, measured). How often the image is decoded no longer changes what a
    // sample reads: its records stay in the image until the sample is complete.
    plan.decode_period = std::clamp<std::chrono::nanoseconds>(interval, milliseconds(50), milliseconds(100));
  }
  // A full image is reset, and a sample in flight then is dropped: at most one in
  // kPmMaxImageSamples (every 1024 ms at 1 ms, 102 s at 100 ms).
  plan.max_samples = kPmMaxImageSamples;
  std::int64_t per_period =
      std::max<std::int64_t>(1, plan.decode_period.count() / std::max<std::int64_t>(1, interval.count()));
  if (hardware_buffer_bytes > 0) {
    plan.hardware_buffer_bytes = hardware_buffer_bytes;
  } else {
    std::size_t two_periods = 2 * static_cast<std::size_t>(per_period) * kPmBytesPerSampleEstimate;
    constexpr std::size_t kMiB = 1u << 20;
    plan.hardware_buffer_bytes = std::max(kPmMinHardwareBufferBytes, (two_periods + kMiB - 1) / kMiB * kMiB);
  }
  return plan;
}

}  // namespace cuprobe
