// The clocks of cuprobe, the one home of their readers. CLOCK_REALTIME
// (unix-epoch ns) is the clock every file and report carries; CLOCK_MONOTONIC
// measures intervals. A run that measures intervals maps them onto
// CLOCK_REALTIME through one fixed offset, so a clock step during the run does
// not tear intervals apart. Header-only and standard library + POSIX only: the
// injected library uses it too.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

namespace cuprobe {

inline std::int64_t clock_ns(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// CLOCK_MONOTONIC ns.
inline std::int64_t mono_ns() { return clock_ns(CLOCK_MONOTONIC); }

// CLOCK_REALTIME ns since the unix epoch.
inline std::int64_t realtime_ns() { return clock_ns(CLOCK_REALTIME); }

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

// A unix time (seconds) as strftime's `format` writes it, in the local time zone or in UTC.
enum class TimeZone { kLocal, kUtc };
inline std::string clock_text(std::time_t secs, const char* format, TimeZone zone) {
  std::tm tm{};
  if (zone == TimeZone::kUtc) {
    gmtime_r(&secs, &tm);
  } else {
    localtime_r(&secs, &tm);
  }
  char buf[128];
  return std::string(buf, std::strftime(buf, sizeof buf, format, &tm));
}

}  // namespace cuprobe
