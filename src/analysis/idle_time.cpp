#include "analysis/idle_time.h"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>

#include "analysis/track_keys.h"
#include "common/percentile.h"

namespace cuprobe {
namespace {

enum Cause { kHostWait, kKernelWait, kOther, kCauses };

double step_median_ms(const std::vector<std::array<TimeNs, kCauses>>& per_step, Cause c) {
  if (per_step.empty()) return 0;
  std::vector<double> v;
  v.reserve(per_step.size());
  for (const auto& s : per_step) v.push_back(static_cast<double>(s[c]));
  return percentile(std::move(v), 50) / 1e6;
}

}  // namespace

IdleBreakdown idle_by_stream(const Profile& profile, const LaunchLinks& links, const StepAssignment& steps) {
  IdleBreakdown out;
  out.kernel_wait_threshold_us = kKernelWaitThresholdUs;
  out.launches_known = links.linked > 0;
  const auto threshold = static_cast<TimeNs>(kKernelWaitThresholdUs * 1e3);
  struct State {
    TimeNs last_end = 0;
    std::array<TimeNs, kCauses> idle{};
    std::int64_t gaps = 0;
  };
  std::unordered_map<StreamKey, State, StreamKeyHash> streams;
  std::vector<std::array<TimeNs, kCauses>> per_step(steps.summary.steps.size());
  StreamKey last_key{INT32_MIN, INT64_MIN};
  State* state = nullptr;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const GpuActivity& a = profile.gpu[i];
    StreamKey key{a.device, a.stream};
    if (!state || key != last_key) {
      auto [it, fresh] = streams.try_emplace(key);
      state = &it->second;
      last_key = key;
      if (fresh) {
        state->last_end = a.end;
        continue;
      }
    }
    // Activities are sorted by start: the gap is to the latest end so far on the stream.
    TimeNs gap = a.start - state->last_end;
    if (gap > 0) {
      std::int32_t call = links.launch[i];
      Cause cause = call >= 0 && profile.cpu[static_cast<std::size_t>(call)].start > state->last_end ? kHostWait
                    : gap < threshold                                                                ? kKernelWait
                                                                                                     : kOther;
      state->idle[cause] += gap;
      ++state->gaps;
      int s = i < steps.activity_step.size() ? steps.activity_step[i] : -1;
      if (s >= 0 && static_cast<std::size_t>(s) < per_step.size()) per_step[static_cast<std::size_t>(s)][cause] += gap;
    }
    state->last_end = std::max(state->last_end, a.end);
  }
  std::map<StreamKey, const State*> ordered;
  for (const auto& [key, st] : streams) ordered.emplace(key, &st);
  auto ms = [](TimeNs t) { return static_cast<double>(t) / 1e6; };
  for (const auto& [key, st] : ordered) {
    StreamIdle row{key.device,          key.stream, st->gaps, ms(st->idle[kHostWait]), ms(st->idle[kKernelWait]),
                   ms(st->idle[kOther])};
    out.total.gaps += row.gaps;
    out.total.host_wait_ms += row.host_wait_ms;
    out.total.kernel_wait_ms += row.kernel_wait_ms;
    out.total.other_ms += row.other_ms;
    out.streams.push_back(row);
  }
  out.step_host_wait_median_ms = step_median_ms(per_step, kHostWait);
  out.step_kernel_wait_median_ms = step_median_ms(per_step, kKernelWait);
  out.step_other_median_ms = step_median_ms(per_step, kOther);
  return out;
}

}  // namespace cuprobe
