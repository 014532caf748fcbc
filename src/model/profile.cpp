#include "model/profile.h"

#include <algorithm>

namespace cuprobe {

void ImportStats::warn(const std::string& reason, std::int64_t n) {
  odd_events += n;
  for (auto& [r, count] : warnings) {
    if (r == reason) {
      count += n;
      return;
    }
  }
  warnings.emplace_back(reason, n);
}

void Profile::sort_by_time() {
  std::stable_sort(gpu.begin(), gpu.end(),
                   [](const GpuActivity& a, const GpuActivity& b) { return a.start < b.start; });
  std::stable_sort(cpu.begin(), cpu.end(),
                   [](const CpuRange& a, const CpuRange& b) { return a.start < b.start; });
  std::stable_sort(counters.begin(), counters.end(),
                   [](const CounterSample& a, const CounterSample& b) { return a.start < b.start; });
}

}  // namespace cuprobe
