// Profile::sort_by_time's order (stable, by start) for vectors already nearly in
// it: a Kineto file lists its events in time order, and a file read in two parts
// is two such lists end to end. Merging the sorted runs moves each element a few
// times; std::stable_sort moves it about log2(n) times whatever the input (for
// 400k CPU ranges of 64 bytes, a tenth of an analyze). Many runs: stable_sort.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

template <typename T>
void stable_sort_by_start(std::vector<T>& v) {
  constexpr std::size_t kMaxRuns = 64;
  auto before = [](const T& a, const T& b) { return a.start < b.start; };
  std::vector<std::size_t> runs{0};  // where each sorted run starts
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (!before(v[i], v[i - 1])) continue;
    if (runs.size() == kMaxRuns) {
      std::stable_sort(v.begin(), v.end(), before);
      return;
    }
    runs.push_back(i);
  }
  // Adjacent runs merged pairwise; inplace_merge keeps the left run's element first at equal starts.
  auto at = [&](std::size_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i); };
  while (runs.size() > 1) {
    std::vector<std::size_t> merged;
    for (std::size_t k = 0; k < runs.size(); k += 2) {
      merged.push_back(runs[k]);
      if (k + 1 == runs.size()) break;
      std::size_t end = k + 2 < runs.size() ? runs[k + 2] : v.size();
      // Only where the runs overlap in time: inplace_merge's buffer is as large as the shorter run (13 MiB for two
      // parts of 400k CPU ranges), every element moved through it.
      auto middle = at(runs[k + 1]);
      auto from = std::upper_bound(at(runs[k]), middle, *middle, before);
      auto to = std::lower_bound(middle, at(end), *(middle - 1), before);
      std::inplace_merge(from, middle, to, before);
    }
    runs = std::move(merged);
  }
}

// The same result as profile.sort_by_time().
inline void sort_nearly_sorted_by_time(Profile& profile) {
  stable_sort_by_start(profile.gpu);
  stable_sort_by_start(profile.cpu);
  stable_sort_by_start(profile.counters);
  std::sort(profile.unkept_starts.begin(), profile.unkept_starts.end());
}

}  // namespace cuprobe
