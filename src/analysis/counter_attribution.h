// Hardware counters per kernel and per category: for each kernel, the
// time-weighted mean of every metric over the counter samples that overlap
// its execution on its GPU. Device-wide samples cannot split concurrent
// kernels: a sample overlapping two kernels counts fully for both. Nor can a
// 10 ms sample describe a 3 us kernel: ran_share() says how much of the sampled
// time a row's own work filled, so a report can refuse readings that are
// mostly other work or idle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/kernel_taxonomy.h"
#include "model/profile.h"

namespace cuprobe {

// The coverage rule: a row's readings describe its own work only where its
// activities ran for at least this share of the sampled time they overlap;
// below it they would be mostly other work or idle time.
inline constexpr double kMinRanShare = 0.5;

struct CounterAttributionRow {
  std::string key;                   // kernel name or category name
  std::int64_t kernels = 0;          // activities counted
  std::int64_t covered_kernels = 0;  // of which overlapped by at least one sample
  TimeNs busy_ns = 0;                // their summed durations
  TimeNs covered_ns = 0;             // of which overlapped by at least one sample
  TimeNs sampled_ns = 0;             // total length of the distinct samples those activities overlap
  std::vector<double> means;         // one per CounterAttribution::metrics; NaN = no overlapping sample

  // Share of the overlapped samples' time during which this row's activities ran (0..1; 0 = no samples).
  double ran_share() const;
  // The coverage rule (kMinRanShare): its readings are its own work's.
  bool readings_are_own() const { return ran_share() >= kMinRanShare; }
};

struct CounterAttribution {
  std::vector<std::string> metrics;                // metric names, sorted
  std::vector<CounterAttributionRow> by_category;  // categories with activity, by busy time
  std::vector<CounterAttributionRow> by_kernel;    // the top kernels by busy time
  std::vector<double> overall;                     // time-weighted mean of each metric from first to last GPU activity
  bool overall_over_kernels = false;               // false: over every sample (the profile has no GPU activity)
  TimeNs median_sample_ns = 0;
};

// Empty metrics when the profile has no counter samples. `classes`: one per profile.gpu
// activity (classify_activities); the overload without them classifies itself.
CounterAttribution attribute_counters(const Profile& profile, const std::vector<KernelClass>& classes,
                                      std::size_t top_kernels = 10);
CounterAttribution attribute_counters(const Profile& profile, std::size_t top_kernels = 10);

}  // namespace cuprobe
