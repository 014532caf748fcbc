#include "analysis/distribution.h"

#include <algorithm>
#include <cmath>

#include "common/percentile.h"

namespace cuprobe {
namespace {

// Percentile q of `v` by selection: the value at rank lo by nth_element, the one at lo + 1 as the
// smallest of what lies above it.
double select_percentile(std::span<double> v, double q) {
  PercentileRank r = percentile_rank(q, v.size());
  auto lo = v.begin() + static_cast<std::ptrdiff_t>(r.lo);
  std::nth_element(v.begin(), lo, v.end());
  double at_lo = *lo;
  double at_hi = r.hi == r.lo ? at_lo : *std::min_element(lo + 1, v.end());
  return interpolate(r, at_lo, at_hi);
}

}  // namespace

Distribution describe(std::span<double> values) {
  Distribution d;
  if (values.empty()) return d;
  d.count = static_cast<std::int64_t>(values.size());
  d.min = values.front();
  d.max = values.front();
  for (double v : values) {
    d.sum += v;
    d.min = std::min(d.min, v);
    d.max = std::max(d.max, v);
  }
  d.mean = d.sum / static_cast<double>(values.size());
  double squares = 0;
  for (double v : values) squares += (v - d.mean) * (v - d.mean);
  d.std = std::sqrt(squares / static_cast<double>(values.size()));
  d.p90 = select_percentile(values, 90);
  d.median = select_percentile(values, 50);
  return d;
}

void GroupedValues::place_all() {
  for (std::size_t g = 1; g < offsets_.size(); ++g) offsets_[g] += offsets_[g - 1];
  fill_.assign(offsets_.begin(), offsets_.end() - 1);
  values_.resize(static_cast<std::size_t>(offsets_.back()));
}

}  // namespace cuprobe
