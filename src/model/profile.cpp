#include "model/profile.h"

#include <algorithm>

namespace cuprobe {

void Profile::sort_by_time() {
  std::stable_sort(gpu.begin(), gpu.end(),
                   [](const GpuActivity& a, const GpuActivity& b) { return a.start < b.start; });
  std::stable_sort(cpu.begin(), cpu.end(), [](const CpuRange& a, const CpuRange& b) { return a.start < b.start; });
  std::stable_sort(counters.begin(), counters.end(),
                   [](const CounterSample& a, const CounterSample& b) { return a.start < b.start; });
  std::sort(unkept_starts.begin(), unkept_starts.end());
}

}  // namespace cuprobe
