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

}  // namespace cuprobe
