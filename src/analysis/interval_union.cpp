#include "analysis/interval_union.h"

#include <algorithm>

#include "model/time_range.h"

namespace cuprobe {
namespace {

template <typename Range, typename Get>
TimeNs union_of_sorted(const Range& items, Get get) {
  TimeNs total = 0;
  bool open = false;
  TimeNs cur_start = 0, cur_end = 0;
  for (const auto& item : items) {
    auto [s, e] = get(item);
    if (!open || s > cur_end) {
      if (open) total = saturating_add(total, cur_end - cur_start);
      cur_start = s;
      cur_end = e;
      open = true;
    } else if (e > cur_end) {
      cur_end = e;
    }
  }
  if (open) total = saturating_add(total, cur_end - cur_start);
  return total;
}

}  // namespace

TimeNs union_length(std::vector<Interval>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  return union_of_sorted(intervals, [](const Interval& i) { return i; });
}

TimeNs busy_time(const std::vector<GpuActivity>& sorted_activities) {
  return union_of_sorted(sorted_activities, [](const GpuActivity& a) { return Interval{a.start, a.end}; });
}

}  // namespace cuprobe
