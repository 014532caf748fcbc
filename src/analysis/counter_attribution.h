// Hardware counters per kernel and per category: for each kernel, the
// time-weighted mean of every metric over the counter samples that overlap
// its execution on its GPU. Device-wide samples cannot split concurrent
// kernels: a sample overlapping two kernels counts fully for both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

struct CounterAttributionRow {
  std::string key;                 // kernel name or category name
  std::int64_t kernels = 0;        // activities counted
  TimeNs busy_ns = 0;              // their summed durations
  TimeNs covered_ns = 0;           // of which overlapped by at least one sample
  std::vector<double> means;       // one per CounterAttribution::metrics; NaN = no overlapping sample
};

struct CounterAttribution {
  std::vector<std::string> metrics;               // metric names, sorted
  std::vector<CounterAttributionRow> by_category; // categories with activity, by busy time
  std::vector<CounterAttributionRow> by_kernel;   // the top kernels by busy time
};

// Empty metrics when the profile has no counter samples.
CounterAttribution attribute_counters(const Profile& profile, std::size_t top_kernels = 10);

}  // namespace cuprobe
