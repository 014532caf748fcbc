// Percentiles: one definition for every report (analyze, bench, sample), written
// down in docs/metrics.md. q is in [0, 100] (p50 is q = 50; values outside are
// clamped). The value is numpy.percentile's default: sort, take the fractional
// rank q/100 * (n - 1) counted from 0, and interpolate linearly between the two
// closest ranks. An empty set has no percentile: NaN, and the report decides
// how to show "none".
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace cuprobe {

// Where percentile q falls among n sorted values: between ranks lo and hi
// (0-based, hi = lo or lo + 1), frac of the way from lo to hi. n must be > 0.
struct PercentileRank {
  std::size_t lo = 0, hi = 0;
  double frac = 0;
};
PercentileRank percentile_rank(double q, std::size_t n);

// The interpolation between the values at ranks lo and hi.
inline double interpolate(const PercentileRank& r, double at_lo, double at_hi) {
  return at_lo + (at_hi - at_lo) * r.frac;
}

// Percentile q of values already sorted ascending; NaN when empty.
double percentile_sorted(std::span<const double> sorted, double q);

// Percentile q of values in any order; NaN when empty.
double percentile(std::vector<double> values, double q);

// The lower median: the value at rank (n - 1) / 2, no interpolation (a value that occurred); T{} when empty.
template <typename T>
T lower_median(std::vector<T> values) {
  if (values.empty()) return T{};
  auto mid = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

}  // namespace cuprobe
