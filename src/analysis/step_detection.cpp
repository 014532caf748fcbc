#include "analysis/step_detection.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

#include "analysis/interval_union.h"
#include "analysis/launch_context.h"
#include "analysis/periodicity.h"
#include "analysis/step_detection_graphs.h"
#include "analysis/step_outliers.h"
#include "common/percentile.h"

namespace cuprobe {
namespace {

bool contains_step_word(std::string_view name) {
  for (std::size_t i = 0; i + 4 <= name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) == 's' &&
        std::tolower(static_cast<unsigned char>(name[i + 1])) == 't' &&
        std::tolower(static_cast<unsigned char>(name[i + 2])) == 'e' &&
        std::tolower(static_cast<unsigned char>(name[i + 3])) == 'p') {
      return true;
    }
  }
  return false;
}

struct MarkerRule {
  std::string_view label;
  bool (*matches)(std::string_view name);
};

// Auto-detected markers in order of preference: the engines' own first.
const MarkerRule kMarkerRules[] = {
    {"step[", [](std::string_view n) { return n.starts_with("step["); }},
    {"execute_", [](std::string_view n) { return n.starts_with("execute_"); }},
    {"ProfilerStep#", [](std::string_view n) { return n.starts_with("ProfilerStep#"); }},
    {"*step*", [](std::string_view n) { return contains_step_word(n); }},
};

bool same_process(std::int64_t a, std::int64_t b) { return a < 0 || b < 0 || a == b; }

// Annotation ranges chosen as steps, outermost only, sorted by start.
std::vector<const CpuRange*> annotation_steps(const Profile& profile, const AnalyzeOptions& options,
                                              std::string& marker) {
  std::vector<const CpuRange*> chosen;
  auto collect = [&](auto&& matches) {
    chosen.clear();
    for (const auto& r : profile.cpu) {
      if (r.kind == CpuRangeKind::kAnnotation && matches(profile.name_of(r.name))) chosen.push_back(&r);
    }
    return !chosen.empty();
  };
  if (!options.step_marker.empty()) {
    marker = options.step_marker;
    collect([&](std::string_view n) { return n.starts_with(options.step_marker); });
  } else {
    for (const auto& rule : kMarkerRules) {
      if (collect([&](std::string_view n) { return rule.matches(n); })) {
        marker = rule.label == "*step*" ? std::string(profile.name_of(chosen.front()->name)) : std::string(rule.label);
        break;
      }
    }
  }
  std::vector<const CpuRange*> outermost;
  for (const CpuRange* r : chosen) {  // profile.cpu is sorted by start
    if (!outermost.empty() && r->end <= outermost.back()->end && same_process(r->pid, outermost.back()->pid)) continue;
    outermost.push_back(r);
  }
  return outermost;
}

void assign_by_annotation(const Profile& profile, const std::vector<const CpuRange*>& ranges, StepAssignment& out) {
  for (const CpuRange* r : ranges) {
    Step s;
    s.cpu_start = r->start;
    s.cpu_end = r->end;
    s.kind = step_kind_from_name(profile.name_of(r->name));
    out.summary.steps.push_back(s);
  }
  std::unordered_map<std::int64_t, int> step_of_correlation;
  std::unordered_set<std::int64_t> launched;  // correlation ids that have a launch call in the trace
  for (const auto& call : profile.cpu) {
    if (call.kind != CpuRangeKind::kRuntime || call.correlation < 0) continue;
    launched.insert(call.correlation);
    auto it = std::upper_bound(ranges.begin(), ranges.end(), call.start,
                               [](TimeNs t, const CpuRange* r) { return t < r->start; });
    // Ranges may overlap when they come from several threads: look back a little.
    for (int back = 0; back < 4 && it != ranges.begin(); ++back) {
      --it;
      const CpuRange* r = *it;
      if (call.start < r->end && same_process(call.pid, r->pid)) {
        step_of_correlation.emplace(call.correlation, static_cast<int>(it - ranges.begin()));
        break;
      }
    }
  }
  // Activities whose launch call is not in the trace (an API the recorder did
  // not capture) are placed by their GPU start: in the step that began last
  // before it (after the last step, only within one step length of its end).
  // Counted and reported, because GPU work can lag its launch.
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const auto& a = profile.gpu[i];
    auto it = step_of_correlation.find(a.correlation);
    if (it != step_of_correlation.end()) {
      out.activity_step[i] = it->second;
      continue;
    }
    if (a.correlation >= 0 && launched.count(a.correlation)) continue;  // launched outside any step
    auto next = std::upper_bound(ranges.begin(), ranges.end(), a.start,
                                 [](TimeNs t, const CpuRange* r) { return t < r->start; });
    if (next == ranges.begin()) continue;
    const CpuRange* step = *std::prev(next);
    if (next != ranges.end() || a.start < step->end + (step->end - step->start)) {
      out.activity_step[i] = static_cast<int>(std::prev(next) - ranges.begin());
      ++out.placed_by_time;
    }
  }
}

// The GPU whose kernel sequence the steps are read from. A process driving several GPUs repeats its step on each,
// their kernels interleaving differently as they overlap: the first GPU the process launches work on (a pipeline's
// first stage, DataParallel's first replica), among those with at least half the kernels of the busiest.
std::int32_t lead_device(const Profile& profile, const std::unordered_map<std::int64_t, const CpuRange*>& launch_of) {
  struct Seen {
    std::int32_t device = -1;
    std::int64_t kernels = 0;
    TimeNs first = INT64_MAX;  // the launch of its first kernel (on the GPU clock: its start without one)
  };
  std::vector<Seen> devices;  // a few
  std::size_t at = 0;
  for (const auto& a : profile.gpu) {
    if (a.kind != GpuActivityKind::kKernel) continue;
    if (at >= devices.size() || devices[at].device != a.device) {
      at = 0;
      while (at < devices.size() && devices[at].device != a.device) ++at;
      if (at == devices.size()) {
        auto it = launch_of.find(a.correlation);
        devices.push_back({a.device, 0, it != launch_of.end() ? it->second->start : a.start});
      }
    }
    ++devices[at].kernels;
  }
  std::int64_t most = 0;
  for (const Seen& d : devices) most = std::max(most, d.kernels);
  std::int32_t lead = -1;
  TimeNs first = INT64_MAX;
  for (const Seen& d : devices) {
    if (2 * d.kernels < most) continue;
    if (d.first < first || (d.first == first && d.device < lead)) lead = d.device, first = d.first;
  }
  return lead;
}

// The lead GPU's kernel sequence as periodicity reads it: each kernel's name, its boundary score (the GPU idle
// before it, far higher after a read-back or a synchronize the host returned from before launching it) and whether
// a device-to-host copy came just before it.
struct KernelSequence {
  std::vector<std::size_t> kernel_index;  // into profile.gpu
  std::vector<StringId> names;
  std::vector<double> boundary_score;
  std::vector<bool> read_back;
  std::int64_t synchronized_boundaries = 0;
};

KernelSequence lead_kernel_sequence(const Profile& profile,
                                    const std::unordered_map<std::int64_t, const CpuRange*>& launch_of) {
  constexpr double kAfterDeviceToHostCopy = kReadBackScore;  // outweighs any idle gap (ns)
  constexpr double kAfterSynchronize = kSynchronizeScore;    // outweighs any idle gap, not a read-back
  // The host's synchronizing calls (recorded with the runtime API: torch.profiler, `cuprobe record --api`), by the
  // time they return: the first kernel launched after one begins what the host did next.
  std::vector<TimeNs> synchronized;
  for (const auto& call : profile.cpu) {
    if (call.kind == CpuRangeKind::kRuntime && is_synchronizing_call(profile.name_of(call.name)))
      synchronized.push_back(call.end);
  }
  std::sort(synchronized.begin(), synchronized.end());
  KernelSequence q;
  TimeNs last_launch = INT64_MIN;
  TimeNs last_end = 0;
  bool copy_back_since_last_kernel = false;
  const std::int32_t lead = lead_device(profile, launch_of);
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const auto& a = profile.gpu[i];
    if (a.kind == GpuActivityKind::kMemcpy && a.memcpy_kind == MemcpyKind::kDtoH) copy_back_since_last_kernel = true;
    if (a.kind != GpuActivityKind::kKernel || a.device != lead) continue;
    double gap = q.kernel_index.empty() ? 0.0 : static_cast<double>(std::max<TimeNs>(0, a.start - last_end));
    bool after_sync = false;
    if (auto it = launch_of.find(a.correlation); it != launch_of.end()) {
      TimeNs launched = it->second->start;
      auto s = std::upper_bound(synchronized.begin(), synchronized.end(), last_launch);
      after_sync = !q.kernel_index.empty() && s != synchronized.end() && *s <= launched;
      last_launch = launched;
    }
    if (after_sync) ++q.synchronized_boundaries;
    q.boundary_score.push_back(gap + (copy_back_since_last_kernel ? kAfterDeviceToHostCopy : 0.0) +
                               (after_sync ? kAfterSynchronize : 0.0));
    q.read_back.push_back(copy_back_since_last_kernel);
    copy_back_since_last_kernel = false;
    last_end = q.kernel_index.empty() ? a.end : std::max(last_end, a.end);
    q.kernel_index.push_back(i);
    q.names.push_back(a.name);
  }
  return q;
}

// Steps from the lead GPU's kernel sequence; the other GPUs' activities, and copies and memsets, go to the step
// whose launches enclose their launch (their GPU start without one).
void assign_by_periodicity(const Profile& profile, StepAssignment& out) {
  std::unordered_map<std::int64_t, const CpuRange*> launch_of;
  for (const auto& call : profile.cpu) {
    if (call.kind == CpuRangeKind::kRuntime && call.correlation >= 0) launch_of.emplace(call.correlation, &call);
  }
  KernelSequence seq = lead_kernel_sequence(profile, launch_of);
  const std::vector<std::size_t>& kernel_index = seq.kernel_index;
  const std::vector<StringId>& names = seq.names;
  const std::int64_t synchronized_boundaries = seq.synchronized_boundaries;
  const std::int32_t lead = lead_device(profile, launch_of);
  PeriodicSteps periodic = find_periodic_steps(names, seq.boundary_score, seq.read_back);
  if (periodic.period == 0) return;

  auto launch_time = [&](std::size_t k) {
    const GpuActivity& a = profile.gpu[kernel_index[k]];
    auto it = launch_of.find(a.correlation);
    if (it == launch_of.end()) out.summary.cpu_from.clear();  // GPU times stand in
    return it != launch_of.end() ? it->second->start : a.start;
  };

  out.summary.source = "periodicity";
  out.summary.cpu_from = "launch calls";
  out.summary.period_kernels = periodic.period;
  out.summary.marker = "period of " + std::to_string(periodic.period) + " kernels";
  if (periodic.by_read_back) out.summary.marker += ", each step from a device-to-host read-back";
  if (periodic.read_backs_inside) out.summary.marker += ", read-backs inside each step";
  if (periodic.by_boundaries) {
    out.summary.marker += synchronized_boundaries > 0 ? ", each step from the host's synchronize"
                                                      : ", each step from the GPU idle gap the host leaves";
  }
  const auto& starts = periodic.starts;
  for (std::size_t s = 0; s < starts.size(); ++s) {
    std::size_t begin = starts[s];
    std::size_t end = s + 1 < starts.size() ? starts[s + 1] : names.size();
    if (s + 1 == starts.size() && static_cast<std::int64_t>(end - begin) < periodic.period / 2) break;  // cut off
    Step step;
    step.kind = "step";
    step.cpu_start = launch_time(begin);
    step.cpu_end = end < names.size() ? launch_time(end) : launch_time(end - 1);
    int index = static_cast<int>(out.summary.steps.size());
    out.summary.steps.push_back(step);
    for (std::size_t k = begin; k < end; ++k) out.activity_step[kernel_index[k]] = index;
  }
  // Copies, memsets and the other GPUs' work launched between a step's kernels belong to that step. On one GPU the
  // last step ends at its last kernel's launch; on several, the other GPUs' work of the last step is launched after
  // that: what is launched within one step length of the step's start counts.
  const auto& steps = out.summary.steps;
  if (steps.empty()) return;
  const bool several =
      std::any_of(profile.gpu.begin(), profile.gpu.end(), [&](const GpuActivity& a) { return a.device != lead; });
  const TimeNs last_length = steps.size() > 1 ? steps.back().cpu_start - steps[steps.size() - 2].cpu_start
                                              : steps.back().cpu_end - steps.back().cpu_start;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    const auto& a = profile.gpu[i];
    if ((a.kind == GpuActivityKind::kKernel && a.device == lead) || out.activity_step[i] >= 0) continue;
    TimeNs when = a.start;
    if (auto it = launch_of.find(a.correlation); it != launch_of.end()) when = it->second->start;
    auto next = std::upper_bound(steps.begin(), steps.end(), when,
                                 [](TimeNs t, const Step& step) { return t < step.cpu_start; });
    if (next == steps.begin()) continue;
    const Step& step = *std::prev(next);
    TimeNs end = next != steps.end() ? next->cpu_start
                 : several           ? step.cpu_start + std::max(last_length, step.cpu_end - step.cpu_start)
                                     : step.cpu_end;
    if (when < end) out.activity_step[i] = static_cast<int>(std::prev(next) - steps.begin());
  }
}

}  // namespace

std::string step_kind_from_name(std::string_view name) {
  auto has = [&](std::string_view w) { return name.find(w) != std::string_view::npos; };
  if (has("DECODE") || has("decode") || has("Decode")) return "decode";
  if (has("EXTEND") || has("extend") || has("PREFILL") || has("prefill") || has("Prefill")) return "prefill";
  return "step";
}

void finish_steps(const Profile& profile, StepAssignment& a) {
  auto& steps = a.summary.steps;
  std::vector<std::vector<Interval>> intervals(steps.size());
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    int s = a.activity_step[i];
    if (s < 0) continue;
    const auto& act = profile.gpu[i];
    Step& step = steps[static_cast<std::size_t>(s)];
    if (step.activities == 0 || act.start < step.gpu_start) step.gpu_start = act.start;
    if (step.activities == 0 || act.end > step.gpu_end) step.gpu_end = act.end;
    ++step.activities;
    ++a.summary.assigned_activities;
    intervals[static_cast<std::size_t>(s)].emplace_back(act.start, act.end);
  }
  for (std::size_t s = 0; s < steps.size(); ++s) steps[s].gpu_busy = union_length(intervals[s]);
  // Step time: GPU start to the next step's GPU start (so GPU work that lags its
  // launch, and idle between steps, count in the step), never below the busy time.
  for (std::size_t s = 0; s < steps.size(); ++s) {
    Step& step = steps[s];
    if (step.activities == 0) continue;
    TimeNs length = step.gpu_end - step.gpu_start;
    if (s + 1 < steps.size() && steps[s + 1].activities > 0 && steps[s + 1].gpu_start > step.gpu_start) {
      length = steps[s + 1].gpu_start - step.gpu_start;
    }
    step.time = std::max(length, step.gpu_busy);
  }
  std::vector<double> time_ms, cpu_ms, span_ms, busy_ms;
  for (const Step& step : steps) {
    cpu_ms.push_back(static_cast<double>(step.cpu_end - step.cpu_start) / 1e6);
    if (step.activities == 0) continue;
    time_ms.push_back(static_cast<double>(step.time) / 1e6);
    span_ms.push_back(static_cast<double>(step.gpu_end - step.gpu_start) / 1e6);
    busy_ms.push_back(static_cast<double>(step.gpu_busy) / 1e6);
  }
  if (!cpu_ms.empty() && !a.summary.cpu_from.empty()) {
    a.summary.cpu_median_ms = percentile(cpu_ms, 50);
    a.summary.cpu_p90_ms = percentile(cpu_ms, 90);
  }
  if (time_ms.empty()) return;  // no GPU work in any step: the summary keeps its zeros
  a.summary.median_ms = percentile(time_ms, 50);
  a.summary.p90_ms = percentile(time_ms, 90);
  a.summary.gpu_span_median_ms = percentile(span_ms, 50);
  a.summary.gpu_span_p90_ms = percentile(span_ms, 90);
  a.summary.gpu_median_ms = percentile(busy_ms, 50);
  a.summary.gpu_p90_ms = percentile(busy_ms, 90);
  mark_typical_and_outliers(a.summary);
}

StepAssignment detect_steps(const Profile& profile, const AnalyzeOptions& options) {
  StepAssignment out;
  out.activity_step.assign(profile.gpu.size(), -1);
  std::string marker;
  auto ranges = annotation_steps(profile, options, marker);
  if (!ranges.empty()) {
    out.summary.source = "annotation";
    out.summary.cpu_from = "annotation";
    out.summary.marker = marker;
    assign_by_annotation(profile, ranges, out);
  } else if (options.step_marker.empty() && !assign_by_graph_replays(profile, out)) {
    assign_by_periodicity(profile, out);
  }
  finish_steps(profile, out);
  return out;
}

}  // namespace cuprobe
