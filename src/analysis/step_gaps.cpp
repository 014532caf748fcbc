#include "analysis/step_gaps.h"

#include <algorithm>
#include <limits>
#include <span>
#include <vector>

#include "analysis/pattern_thresholds.h"
#include "analysis/thresholds.h"

namespace cuprobe {

std::string_view runtime_base_name(std::string_view name) {
  // `cuprobe record --api` names a call with its API version: cudaMalloc_v3020.
  std::size_t v = name.rfind("_v");
  if (v == std::string_view::npos || v + 2 >= name.size()) return name;
  for (std::size_t i = v + 2; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, v);
}

bool allocation_call(std::string_view full) {
  std::string_view name = runtime_base_name(full);
  return name == "cudaMalloc" || name == "cudaFree" || name == "cuMemAlloc_v2" || name == "cuMemFree_v2" ||
         name == "cudaMallocAsync" || name == "cudaFreeAsync" || name == "hipMalloc" || name == "hipFree" ||
         name == "cuMemAlloc" || name == "cuMemFree";
}

namespace {

// Whether the launching thread ran operators or runtime calls for at least half of [start, end). A trace with runtime
// calls but no operators (`record --api`) cannot say that: the framework's Python and dispatch between its calls show
// as time in no range. There, the thread ran the framework unless it went kHostWorkGapUs or more without a runtime
// call inside the gap (an eager framework calls the runtime every few microseconds: cudaGetDevice, launches). `tid`:
// the launching thread; -1 where the launch was not recorded (a driver-API launch: cuBLASLt's): any thread.
bool framework_range(const CpuRange& r) {
  return r.kind == CpuRangeKind::kOperator || r.kind == CpuRangeKind::kRuntime;
}

// For each index of profile.cpu (sorted by start), the latest end of the operators and runtime calls up to it: the
// ranges before the first index whose value passes a time all ended by then, and a gap's walk skips them.
std::vector<TimeNs> latest_framework_end(const Profile& profile) {
  std::vector<TimeNs> latest(profile.cpu.size());
  TimeNs so_far = std::numeric_limits<TimeNs>::min();
  for (std::size_t i = 0; i < profile.cpu.size(); ++i) {
    if (framework_range(profile.cpu[i])) so_far = std::max(so_far, profile.cpu[i].end);
    latest[i] = so_far;
  }
  return latest;
}

bool framework_ran(const Profile& profile, std::span<const TimeNs> latest_end, std::int64_t tid, TimeNs start,
                   TimeNs end, bool operators) {
  const auto& cpu = profile.cpu;
  TimeNs covered = 0, reach = start, silence = 0;
  constexpr TimeNs kLookBack = 50'000'000;  // operators around the gap's start began at most this long before
  auto from = std::lower_bound(cpu.begin(), cpu.end(), start - kLookBack,
                               [](const CpuRange& r, TimeNs t) { return r.start < t; });
  // Every range before the first whose latest end passes `start` ended by `start`: the walk would skip it.
  auto still_open = std::upper_bound(latest_end.begin(), latest_end.end(), start);
  auto it = std::max(from, cpu.begin() + (still_open - latest_end.begin()));
  for (; it != cpu.end() && it->start < end; ++it) {
    const CpuRange& r = *it;
    if ((tid >= 0 && r.tid != tid) || r.end <= reach || !framework_range(r)) continue;
    TimeNs lo = std::max(reach, r.start), hi = std::min(end, r.end);
    if (hi > lo) covered += hi - lo;
    silence = std::max(silence, lo - reach);
    reach = std::max(reach, hi);
  }
  if (!operators) return static_cast<double>(std::max(silence, end - reach)) < thresholds::kHostWorkGapUs * 1e3;
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
  bool operators = std::any_of(profile.cpu.begin(), profile.cpu.end(),
                               [](const CpuRange& r) { return r.kind == CpuRangeKind::kOperator; });
  bool has_calls = std::any_of(profile.cpu.begin(), profile.cpu.end(),
                               [](const CpuRange& r) { return r.kind == CpuRangeKind::kRuntime; });
  const std::vector<TimeNs> latest_end = latest_framework_end(profile);
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
      g.framework = launch
                        ? framework_ran(profile, latest_end, launch->tid, g.start, g.end, operators)
                        : !operators && has_calls && framework_ran(profile, latest_end, -1, g.start, g.end, operators);
      // Still catching up after a stop: the same cause. Without launch calls, a kernel that starts later than a
      // queued one would (kQueuedGapUs after the work before it) was launched late: the host still catching up.
      bool late = launch ? g.starved : !has_calls && g.ms() * 1e3 > thresholds::kQueuedGapUs;
      if (g.cause == GapCause::kOther && late && g.ms() * 1e3 < thresholds::kHostWorkGapUs && !gaps.empty() &&
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
