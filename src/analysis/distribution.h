// The summary of a set of values that the peers' tables show (nsys stats, HTA):
// count, sum, min, median, p90, max, mean and the population standard
// deviation. Percentiles follow common/percentile.h (numpy's default); they are
// found with nth_element, so describing n values costs O(n), not a sort.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace cuprobe {

struct Distribution {
  std::int64_t count = 0;
  double sum = 0;
  double min = 0, median = 0, p90 = 0, max = 0;
  double mean = 0;
  double std = 0;  // population (divides by n, as nsys's and numpy's std with ddof=0)
};

// Reorders `values`. All zeros for an empty set.
Distribution describe(std::span<double> values);

// Groups values by a dense key in two passes (count, then place), so each group's values are
// contiguous: the flat layout that describe() is run over, one group at a time.
class GroupedValues {
 public:
  explicit GroupedValues(std::size_t groups) : offsets_(groups + 1, 0) {}
  void count(std::size_t group) { ++offsets_[group + 1]; }
  void place_all();  // after every count(): sizes become offsets
  void put(std::size_t group, double value) { values_[fill_[group]++] = value; }
  std::span<double> group(std::size_t g) {
    return {values_.data() + offsets_[g], static_cast<std::size_t>(offsets_[g + 1] - offsets_[g])};
  }
  std::size_t groups() const { return offsets_.size() - 1; }

 private:
  std::vector<std::int64_t> offsets_;
  std::vector<std::int64_t> fill_;
  std::vector<double> values_;
};

}  // namespace cuprobe
