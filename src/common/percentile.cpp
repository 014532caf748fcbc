#include "common/percentile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cuprobe {

PercentileRank percentile_rank(double q, std::size_t n) {
  double pos = std::clamp(q, 0.0, 100.0) / 100.0 * static_cast<double>(n - 1);
  PercentileRank r;
  r.lo = static_cast<std::size_t>(std::floor(pos));
  r.hi = std::min(r.lo + 1, n - 1);
  r.frac = pos - static_cast<double>(r.lo);
  return r;
}

double percentile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  PercentileRank r = percentile_rank(q, sorted.size());
  return interpolate(r, sorted[r.lo], sorted[r.hi]);
}

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return percentile_sorted(values, q);
}

}  // namespace cuprobe
