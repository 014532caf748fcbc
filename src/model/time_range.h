// The range of times a Profile may hold, and arithmetic on times read from
// files that cannot overflow. Importers keep every start and end within
// +/-kMaxTimeNs (about 146 years), so the difference of any two stays
// representable; sums of many durations still need saturating_add.
#pragma once

#include <cstdint>
#include <optional>

namespace cuprobe {

inline constexpr std::int64_t kMaxTimeNs = (std::int64_t{1} << 62) - 1;

inline bool time_in_range(std::int64_t t) { return t >= -kMaxTimeNs && t <= kMaxTimeNs; }

// a + b when it is representable and within the time range.
inline std::optional<std::int64_t> checked_time_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum) || !time_in_range(sum)) return std::nullopt;
  return sum;
}

inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? INT64_MAX : INT64_MIN;
  return sum;
}

// hi - lo for hi >= lo, exact even when it does not fit in int64.
inline double span_ns(std::int64_t lo, std::int64_t hi) {
  return static_cast<double>(static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo));
}

}  // namespace cuprobe
