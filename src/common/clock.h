// The two clocks of a bench run: CLOCK_MONOTONIC for every interval, and one
// fixed offset that maps it onto CLOCK_REALTIME (unix-epoch ns, the clock the
// report and the device sampler use). Mapping through a fixed offset keeps a
// clock step during the run from tearing intervals apart.
#pragma once

#include <cstdint>
#include <ctime>

namespace cuprobe {

inline std::int64_t mono_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

inline std::int64_t realtime_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// realtime = monotonic + offset, read once with the tightest bracket of a few tries.
inline std::int64_t monotonic_to_realtime_offset() {
  std::int64_t best_gap = INT64_MAX, offset = 0;
  for (int i = 0; i < 5; ++i) {
    std::int64_t a = mono_ns();
    std::int64_t r = realtime_ns();
    std::int64_t b = mono_ns();
    if (b - a < best_gap) {
      best_gap = b - a;
      offset = r - (a + (b - a) / 2);
    }
  }
  return offset;
}

}  // namespace cuprobe
