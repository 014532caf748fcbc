#include "analysis/launch_context.h"

#include <algorithm>

namespace cuprobe {

LaunchContext::LaunchContext(const Profile& profile) : profile_(profile) {
  for (const auto& r : profile.cpu) {
    if (r.kind == CpuRangeKind::kRuntime && r.correlation >= 0) launches_.emplace(r.correlation, &r);
  }
}

const CpuRange* LaunchContext::launch_of(std::int64_t correlation) const {
  auto it = launches_.find(correlation);
  return it == launches_.end() ? nullptr : it->second;
}

std::string LaunchContext::operator_path(std::int64_t correlation) const {
  const CpuRange* launch = launch_of(correlation);
  if (!launch) return {};
  // Operators are sorted by start: walk back from the launch to those that contain it.
  auto end = std::upper_bound(profile_.cpu.begin(), profile_.cpu.end(), launch->start,
                              [](TimeNs t, const CpuRange& r) { return t < r.start; });
  const CpuRange* innermost = nullptr;
  const CpuRange* outermost = nullptr;
  constexpr int kLookBack = 20000;  // operators nest shallowly; bound the walk
  int seen = 0;
  for (auto it = end; it != profile_.cpu.begin() && seen < kLookBack; ++seen) {
    --it;
    const CpuRange& r = *it;
    if (r.kind != CpuRangeKind::kOperator || r.tid != launch->tid || r.end < launch->end) continue;
    if (!innermost) innermost = &r;
    outermost = &r;
  }
  if (!innermost) return {};
  std::string path(profile_.name_of(innermost->name));
  if (outermost != innermost) path += " (in " + std::string(profile_.name_of(outermost->name)) + ")";
  return path;
}

}  // namespace cuprobe
