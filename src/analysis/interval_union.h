// Length of the union of [start, end) intervals: GPU busy time without
// counting overlapping streams twice.
#pragma once

#include <utility>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

using Interval = std::pair<TimeNs, TimeNs>;

// Sorts the intervals in place.
TimeNs union_length(std::vector<Interval>& intervals);
// For activities already sorted by start.
TimeNs busy_time(const std::vector<GpuActivity>& sorted_activities);

// The union as disjoint intervals, sorted (sorts the input in place).
std::vector<Interval> merged_intervals(std::vector<Interval>& intervals);
// The length of the intersection of two unions given as merge_intervals returns them.
TimeNs intersection_length(const std::vector<Interval>& a, const std::vector<Interval>& b);

}  // namespace cuprobe
