// The GPU idle inside a step because the host stopped feeding it, by what stopped it (step_gaps.h):
// sync_inside_step (read-backs inside the step's loop), host_work_in_step (the host busy with its own work),
// allocation_churn (cudaMalloc/cudaFree in the step), pageable_host_copy (copies from pageable memory).
#include <algorithm>
#include <map>
#include <set>

#include "analysis/findings_patterns.h"
#include "analysis/pattern_thresholds.h"
#include "analysis/step_gaps.h"
#include "analysis/thresholds.h"
#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {
namespace {

using Context = FindingsContext;

struct CauseSum {
  double ms = 0;                       // idle, over the steps
  double count = 0;                    // gaps
  std::map<std::string, int> origins;  // operator paths of the activity before each gap
  std::map<std::size_t, double> by_step;
  // The typical step's idle: the median over the steps (a recording's first steps hold the warm-up's long gaps).
  double typical_ms(std::size_t steps) const {
    std::vector<double> v(steps, 0.0);
    for (auto [st, idle] : by_step) {
      if (st < steps) v[st] = idle;
    }
    return v.empty() ? 0.0 : percentile(v, 50);
  }
};

std::string most_common(const std::map<std::string, int>& m) {
  if (m.empty()) return {};
  return std::max_element(m.begin(), m.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
}

bool has_launch_calls(const Context& ctx) {
  for (const auto& r : ctx.profile.cpu) {
    if (r.kind == CpuRangeKind::kRuntime && is_launch_call(ctx.profile.name_of(r.name))) return true;
  }
  return false;
}

std::string from(const std::string& origin) { return origin.empty() ? "" : ", launched from " + origin; }

void sync_inside_step(Context& ctx, const CauseSum& s, double steps) {
  double per_step = s.count / steps;
  if (per_step < thresholds::kReadBacksPerStep) return;
  double saved = s.ms / steps;
  Finding f;
  f.id = "sync_inside_step";
  std::string origin = most_common(s.origins);
  f.title = format_fixed(per_step, 1) + " read-backs inside each step" + from(origin) +
            ": the host waits for the GPU each time, then the GPU idles " +
            format_duration_ms(saved / std::max(1.0, per_step)) + " until the host launches again (" +
            format_duration_ms(saved) + " of each " + format_duration_ms(ctx.step_ms_now()) + " step)";
  f.suggestion =
      "A device-to-host read (.item(), .cpu(), .tolist(), a data-dependent shape such as torch.where/nonzero, "
      "printing a tensor) inside the layer loop stops the host until the GPU catches up, so the GPU then waits for "
      "every launch. Keep the check on the GPU (accumulate flags with torch tensors) and read back once per step.";
  f.numbers = {{"read_backs_per_step", per_step}, {"idle_after_read_backs_ms_per_step", saved}};
  f.claim.idle_ms = saved;
  push_pattern(ctx, std::move(f), saved, "one read-back per step (the GPU idle after the others gone)");
}

// Without launch calls (a run file recorded without --api) the trace cannot tell the host's own work from the
// framework launching, except where the host's data makes a round trip: `round_trip` holds the long gaps from a
// device-to-host copy to a host-to-device one (the host read something back, worked on it, and sent its result).
void host_work_in_step(Context& ctx, const CauseSum& with_calls, const CauseSum& round_trip, double steps) {
  bool calls = has_launch_calls(ctx);
  const CauseSum& s = calls ? with_calls : round_trip;
  if (s.count <= 0) return;
  double saved = s.typical_ms(static_cast<std::size_t>(steps));
  if (saved <= 0) return;
  Finding f;
  f.id = "host_work_in_step";
  f.title = "the GPU idles " + format_duration_ms(saved) + " of each " + format_duration_ms(ctx.step_ms_now()) +
            " step in " + format_fixed(s.count / steps, 1) + " gaps of at least " +
            format_fixed(thresholds::kHostWorkGapUs, 0) + " us inside the step while the host works" +
            (calls ? "" : " (each from a device-to-host copy to a host-to-device one: the host's data round trip)") +
            (most_common(s.origins).empty() ? "" : " (after " + most_common(s.origins) + ")");
  f.suggestion =
      "The host does its own work (sampling, detokenizing, stopping checks, data preparation) between the step's "
      "GPU work, and the GPU waits for it. Move it to the GPU (torch.topk/softmax/multinomial sampling) or overlap "
      "it with the next step's GPU work (process the previous step's tokens while the current step runs).";
  f.numbers = {{"gaps_per_step", s.count / steps}, {"idle_ms_per_step", saved}};
  f.claim.idle_ms = saved;
  push_pattern(ctx, std::move(f), saved, "the host work overlapped with the GPU's (its idle gaps gone)");
}

void allocation_churn(Context& ctx, const CauseSum& s, double steps, double calls) {
  if (s.count <= 0 || calls <= 0) return;
  double saved = s.ms / steps;
  Finding f;
  f.id = "allocation_churn";
  f.title = format_fixed(calls / steps, 1) + " cudaMalloc/cudaFree calls per step: the GPU idles " +
            format_duration_ms(saved) + " of each " + format_duration_ms(ctx.step_ms_now()) +
            " step while memory is freed and allocated again";
  f.suggestion =
      "Memory is returned to the driver and allocated again every step (torch.cuda.empty_cache(), tensors larger "
      "than the caching allocator keeps, a new size every step). cudaFree synchronizes the device. Allocate the "
      "buffers once and reuse them (out= arguments, preallocated workspaces); drop empty_cache() from the loop.";
  f.numbers = {{"alloc_calls_per_step", calls / steps}, {"idle_ms_per_step", saved}};
  f.claim.idle_ms = saved;
  push_pattern(ctx, std::move(f), saved, "buffers allocated once and reused (the idle during the calls gone)");
}

void pageable_copies(Context& ctx, const CauseSum& s, double steps) {
  double copy_ms = 0, bytes = 0, count = 0;
  Finding f;
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    const GpuActivity& a = ctx.profile.gpu[i];
    if (ctx.steps.activity_step[i] < 0 || !pageable_host_copy(ctx.profile, a) || a.bytes <= 0) continue;
    double t = activity_ms(ctx.profile, i);
    double pinned = static_cast<double>(a.bytes) / (thresholds::kPinnedCopyGBps * 1e9) * 1e3;
    copy_ms += t;
    bytes += static_cast<double>(a.bytes);
    count += 1;
    if (t > pinned) f.claim.activity_ms.emplace_back(i, t - pinned);
  }
  if (count <= 0) return;
  double pinned_ms = bytes / (thresholds::kPinnedCopyGBps * 1e9) * 1e3 / steps;
  double saved = std::max(0.0, copy_ms / steps - pinned_ms) + s.ms / steps;
  f.id = "pageable_host_copy";
  double gbps = copy_ms > 0 ? bytes / (copy_ms * 1e-3) / 1e9 : 0;
  f.title = format_fixed(count / steps, 1) + " host-to-device copies per step from pageable memory (" +
            format_bytes(bytes / steps) + " per step at " + format_fixed(gbps, 1) + " GB/s, " +
            format_duration_ms(copy_ms / steps) + "), each blocking the host; the GPU idles " +
            format_duration_ms(s.ms / steps) + " after them";
  f.suggestion =
      "Tensors in ordinary (pageable) host memory are staged through a bounce buffer by a synchronous copy. Pin "
      "them once (tensor.pin_memory(), pin_memory=True in the DataLoader) and copy with .to('cuda', "
      "non_blocking=True): the copy runs at the link's speed and the host keeps launching.";
  f.numbers = {{"copies_per_step", count / steps},
               {"bytes_per_step", bytes / steps},
               {"achieved_gbps", gbps},
               {"pinned_gbps", thresholds::kPinnedCopyGBps}};
  f.claim.idle_ms = s.ms / steps;
  f.claim.changes_launches = true;  // a non_blocking copy from pinned memory: the host no longer waits for it
  push_pattern(ctx, std::move(f), saved,
               "pinned memory and non_blocking copies (the copies at " + format_fixed(thresholds::kPinnedCopyGBps, 0) +
                   " GB/s, the host never blocked)");
}

// torch.profiler's own host work inside a gap: every event it recorded there (operator, runtime call, Python frame)
// cost the host time the program without the profiler does not spend. At the high end of what was measured
// (thresholds::kProfilerHostUsPerEventHigh, as gpu_idle's claim): a gap claimed as the host's own work must be its
// own with or without the profiler. Zero for other inputs.
class ProfilerEvents {
 public:
  explicit ProfilerEvents(const Profile& p) : profile_(p), kineto_(p.source == "kineto") {}
  // The kept ranges' starts are counted in place (profile.cpu is sorted by start; gaps are a small part of it):
  // a sorted copy of every start cost megabytes at analyze's peak.
  double ms_in(TimeNs from, TimeNs to) const {
    if (!kineto_) return 0;
    const auto& cpu = profile_.cpu;
    auto by_start = [](const CpuRange& r, TimeNs t) { return r.start < t; };
    std::ptrdiff_t n = 0;
    for (auto it = std::lower_bound(cpu.begin(), cpu.end(), from, by_start); it != cpu.end() && it->start < to; ++it)
      n += it->kind != CpuRangeKind::kOther ? 1 : 0;
    const auto& unkept = profile_.unkept_starts;  // sorted
    n += std::lower_bound(unkept.begin(), unkept.end(), to) - std::lower_bound(unkept.begin(), unkept.end(), from);
    return static_cast<double>(n) * thresholds::kProfilerHostUsPerEvent / 1e3;
  }

 private:
  const Profile& profile_;
  bool kineto_;
};

// Allocation calls cost the time the GPU idles while they run: fills `alloc` (its idle and calls) and the idle by
// step; returns the calls.
double allocation_idle(const FindingsContext& ctx, CauseSum& alloc, std::vector<double>& alloc_by_step) {
  // Allocation calls cost the time the GPU idles while they run, inside a step or between two (empty_cache() at
  // the end of a step frees while the GPU has drained): their overlap with the GPU's idle within the steps' span.
  double calls = 0;
  std::vector<std::pair<TimeNs, TimeNs>> idle;  // the GPU's idle intervals within the steps
  std::set<std::size_t> counted_idle;
  {
    const auto& list = ctx.steps.summary.steps;
    TimeNs from = list.front().gpu_start, to = list.back().gpu_start + list.back().time;
    TimeNs reach = from;
    for (const auto& a : ctx.profile.gpu) {
      if (a.end <= from || a.start >= to) continue;
      if (a.start > reach) idle.emplace_back(reach, a.start);
      reach = std::max(reach, a.end);
    }
    if (reach < to) idle.emplace_back(reach, to);
    for (const auto& r : ctx.profile.cpu) {
      if (r.kind != CpuRangeKind::kRuntime || r.end <= from || r.start >= to) continue;
      std::string_view n = runtime_base_name(ctx.profile.name_of(r.name));
      if (n != "cudaMalloc" && n != "cudaFree" && n != "hipMalloc" && n != "hipFree") continue;
      calls += 1;
      // The host blocked in the call launches nothing: the GPU drains its queue, then idles until the host, back,
      // launches again. So an idle stretch a call overlaps counts whole (once, however many calls overlap it).
      auto it =
          std::lower_bound(idle.begin(), idle.end(), r.start, [](const auto& iv, TimeNs t) { return iv.second <= t; });
      for (; it != idle.end() && it->first < r.end; ++it) {
        if (!counted_idle.insert(static_cast<std::size_t>(it - idle.begin())).second) continue;
        alloc.ms += static_cast<double>(it->second - it->first) / 1e6;
        // By step: the step whose time holds it (the idle after a step's last work is that step's).
        auto step = std::upper_bound(list.begin(), list.end(), it->first,
                                     [](TimeNs v, const Step& st) { return v < st.gpu_start; }) -
                    list.begin() - 1;
        if (step >= 0)
          alloc_by_step[static_cast<std::size_t>(step)] += static_cast<double>(it->second - it->first) / 1e6;
      }
    }
    alloc.count = calls;
  }
  return calls;
}

}  // namespace

void add_step_gap_findings(FindingsContext& ctx) {
  if (!ctx.has_steps()) return;
  std::vector<StepGap> gaps = step_gaps(ctx.profile, ctx.steps, ctx.launches);
  double steps = ctx.step_count();
  // Read-backs count only in steps that stop at least twice: one stop per step is the loop's own read-back.
  std::map<std::size_t, int> read_backs;
  for (const auto& g : gaps) {
    const GpuActivity& prev = ctx.profile.gpu[g.after];
    if (g.cause == GapCause::kReadBack && prev.kind == GpuActivityKind::kMemcpy &&
        prev.memcpy_kind == MemcpyKind::kDtoH)
      ++read_backs[g.step];
  }
  auto read_back_gap = [&](const StepGap& g) {
    const GpuActivity& prev = ctx.profile.gpu[g.after];
    return prev.kind == GpuActivityKind::kMemcpy && prev.memcpy_kind == MemcpyKind::kDtoH;
  };
  CauseSum sync, host, alloc, pageable, round_trip;
  double read_back_count = 0;
  for (const auto& [step, n] : read_backs) read_back_count += n >= 2 ? n : 0;
  ProfilerEvents profiler(ctx.profile);
  // Without a profiler (run files) the host's catching up after a read-back is the read-back's too.
  const bool under_profiler = ctx.profile.source == "kineto";
  for (const auto& g : gaps) {
    std::string origin = ctx.launches.operator_path(ctx.profile.gpu[g.after].correlation);
    // The host's own work in the gap: the gap less the profiler's work in it.
    double own_ms = std::max(0.0, g.ms() - profiler.ms_in(g.start, g.end));
    bool long_gap = own_ms * 1e3 >= thresholds::kHostWorkGapUs;
    CauseSum* s = nullptr;
    switch (g.cause) {
      case GapCause::kAllocation:
        s = &alloc;
        break;
      case GapCause::kPageable:
        s = &pageable;
        break;
      case GapCause::kReadBack:
        // Only the gap right after each read-back under torch.profiler: the starved gaps after it (the host
        // catching up) stretch with the profiler's own cost per operator.
        if (read_backs[g.step] >= 2) {
          s = read_back_gap(g) || !under_profiler ? &sync : nullptr;
        } else {
          s = long_gap && !g.framework ? &host : nullptr;
        }
        break;
      case GapCause::kOther:
        s = long_gap && !g.framework ? &host : nullptr;
        break;
    }
    if (s == &host && read_back_gap(g) && ctx.profile.gpu[g.before].kind == GpuActivityKind::kMemcpy &&
        ctx.profile.gpu[g.before].memcpy_kind == MemcpyKind::kHtoD) {
      round_trip.ms += own_ms;
      round_trip.count += 1;
      round_trip.by_step[g.step] += own_ms;
    }
    if (!s) continue;
    s->ms += s == &host ? own_ms : g.ms();
    s->by_step[g.step] += s == &host ? own_ms : g.ms();
    s->count += 1;
    if (!origin.empty()) ++s->origins[origin];
  }
  CauseSum alloc_idle;
  std::vector<double> alloc_by_step(ctx.steps.summary.steps.size(), 0.0);
  double calls = allocation_idle(ctx, alloc_idle, alloc_by_step);
  alloc = alloc_idle;
  sync.count = read_back_count;  // the read-backs, not the starved gaps after them
  sync_inside_step(ctx, sync, steps);
  host_work_in_step(ctx, host, round_trip, steps);
  // The typical step's: the median over steps (the last step has no idle after it; the step time is the median's).
  alloc.ms = percentile(alloc_by_step, 50) * steps;
  allocation_churn(ctx, alloc, steps, calls);
  pageable_copies(ctx, pageable, steps);
}

}  // namespace cuprobe
