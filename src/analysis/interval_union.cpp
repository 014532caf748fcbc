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

std::vector<Interval> merged_intervals(std::vector<Interval>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  std::vector<Interval> out;
  for (const auto& [s, e] : intervals) {
    if (out.empty() || s > out.back().second) {
      out.emplace_back(s, e);
    } else if (e > out.back().second) {
      out.back().second = e;
    }
  }
  return out;
}

TimeNs intersection_length(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  TimeNs total = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    TimeNs lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (hi > lo) total = saturating_add(total, hi - lo);
    (a[i].second < b[j].second ? i : j) += 1;
  }
  return total;
}

TimeNs busy_time(const std::vector<GpuActivity>& sorted_activities) {
  return union_of_sorted(sorted_activities, [](const GpuActivity& a) { return Interval{a.start, a.end}; });
}

}  // namespace cuprobe
