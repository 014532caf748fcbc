#include "analysis/step_gaps.h"

#include <algorithm>

#include "analysis/pattern_thresholds.h"

namespace cuprobe {
namespace {

bool allocation_call(std::string_view name) {
  return name == "cudaMalloc" || name == "cudaFree" || name == "cuMemAlloc_v2" || name == "cuMemFree_v2" ||
         name == "cudaMallocAsync" || name == "cudaFreeAsync" || name == "hipMalloc" || name == "hipFree" ||
         name == "cuMemAlloc" || name == "cuMemFree";
}

// Whether the launching thread ran operators or runtime calls for at least half of [start, end).
bool framework_ran(const Profile& profile, const CpuRange& next, TimeNs start, TimeNs end) {
  const auto& cpu = profile.cpu;
  TimeNs covered = 0, reach = start;
  constexpr TimeNs kLookBack = 50'000'000;  // operators around the gap's start began at most this long before
  auto it = std::lower_bound(cpu.begin(), cpu.end(), start - kLookBack,
                             [](const CpuRange& r, TimeNs t) { return r.start < t; });
  for (; it != cpu.end() && it->start < end; ++it) {
    const CpuRange& r = *it;
    if (r.tid != next.tid || r.end <= reach || (r.kind != CpuRangeKind::kOperator && r.kind != CpuRangeKind::kRuntime))
      continue;
    TimeNs lo = std::max(reach, r.start), hi = std::min(end, r.end);
    if (hi > lo) covered += hi - lo;
    reach = std::max(reach, hi);
  }
  return covered * 2 >= end - start;
}

}  // namespace

bool pageable_host_copy(const Profile& profile, const GpuActivity& a) {
  if (a.kind != GpuActivityKind::kMemcpy || a.memcpy_kind != MemcpyKind::kHtoD) return false;
  std::string_view name = profile.name_of(a.name);
  if (name.find("Pageable") != std::string_view::npos) return true;
  if (name.find("Pinned") != std::string_view::npos || name.find('(') != std::string_view::npos) return false;
  // No source kind recorded (run files): a large copy well below what pinned memory reaches.
  double s = static_cast<double>(a.duration()) / 1e9;
  return a.bytes >= (1 << 20) && s > 0 && static_cast<double>(a.bytes) / s / 1e9 < thresholds::kPageableCopyGBps;
}

std::vector<StepGap> step_gaps(const Profile& profile, const StepAssignment& steps, const LaunchContext& launches) {
  std::vector<StepGap> gaps;
  if (steps.summary.steps.empty()) return gaps;
  // Allocation calls, by start, for the overlap test.
  std::vector<std::pair<TimeNs, TimeNs>> allocs;
  for (const auto& r : profile.cpu) {
    if (r.kind == CpuRangeKind::kRuntime && allocation_call(profile.name_of(r.name)))
      allocs.emplace_back(r.start, r.end);
  }
  bool have_last = false;
  std::size_t last = 0;  // the activity with the latest end so far
  int last_step = -1;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    int step = steps.activity_step[i];
    if (step < 0) continue;
    const GpuActivity& a = profile.gpu[i];
    if (have_last && step == last_step && a.start > profile.gpu[last].end) {
      StepGap g;
      g.step = static_cast<std::size_t>(step);
      g.start = profile.gpu[last].end;
      g.end = a.start;
      g.after = last;
      g.before = i;
      const GpuActivity& prev = profile.gpu[last];
      bool alloc = std::any_of(allocs.begin(), allocs.end(),
                               [&](const auto& c) { return c.first < g.end && c.second > g.start; });
      if (alloc)
        g.cause = GapCause::kAllocation;
      else if (prev.kind == GpuActivityKind::kMemcpy && prev.memcpy_kind == MemcpyKind::kDtoH)
        g.cause = GapCause::kReadBack;
      else if (pageable_host_copy(profile, prev))
        g.cause = GapCause::kPageable;
      const CpuRange* launch = launches.launch_of(a.correlation);
      g.starved = launch && launch->end > g.start;
      g.framework = launch && framework_ran(profile, *launch, g.start, g.end);
      // Still catching up after a stop: the same cause.
      if (g.cause == GapCause::kOther && g.starved && g.ms() * 1e3 < thresholds::kHostWorkGapUs && !gaps.empty() &&
          gaps.back().step == g.step && gaps.back().cause != GapCause::kOther)
        g.cause = gaps.back().cause;
      gaps.push_back(g);
    }
    if (!have_last || step != last_step || a.end > profile.gpu[last].end) last = i;
    have_last = true;
    last_step = step;
  }
  return gaps;
}

}  // namespace cuprobe
