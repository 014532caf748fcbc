// The findings about the GPU waiting: for the host (gpu_idle, launch_bound) or for another GPU of the rank
// (pipeline_bubble).
#include <algorithm>

#include "analysis/findings_context.h"
#include "analysis/findings_what_if.h"
#include "analysis/pattern_thresholds.h"
#include "analysis/step_gaps.h"
#include "analysis/thresholds.h"
#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {
namespace {

using Context = FindingsContext;

// Synchronizing calls and launches per step, for the idle and launch findings.
struct HostCalls {
  bool seen = false;  // the trace has runtime/driver calls at all (run files only with --api)
  double launches = 0;
  double syncs = 0;
  double launch_us_mean = 0;
};

constexpr const char* kNoHostCalls = "the trace has no CUDA runtime calls; `cuprobe record --api` records them";

HostCalls host_calls(const Context& ctx) {
  HostCalls h;
  double launch_us = 0;
  for (const auto& r : ctx.profile.cpu) {
    if (r.kind != CpuRangeKind::kRuntime) continue;
    h.seen = true;
    std::string_view n = ctx.profile.name_of(r.name);
    if (is_launch_call(n)) {
      h.launches += 1;
      launch_us += static_cast<double>(r.end - r.start) / 1e3;
    } else if (is_synchronizing_call(n)) {
      h.syncs += 1;
    }
  }
  if (h.launches > 0) h.launch_us_mean = launch_us / h.launches;
  double divisor = ctx.has_steps() ? ctx.step_count() : 1.0;
  h.launches /= divisor;
  h.syncs /= divisor;
  return h;
}

double idle_share(const Context& ctx) {
  const auto& s = ctx.steps.summary;
  if (!s.steps.empty() && s.median_ms > 0) return std::clamp(1.0 - s.gpu_median_ms / s.median_ms, 0.0, 1.0);
  return std::clamp(1.0 - ctx.analysis.gpu_busy_share, 0.0, 1.0);
}

// torch.profiler's own work on the host: every event it records (operator, runtime call, Python frame, annotation)
// costs the host time the program without the profiler does not spend, and in a host-bound step that time is GPU
// idle. The step without it is estimated as the traced step less kProfilerHostUsPerEvent per recorded event (the
// median over the steps), never below the GPU's busy time or the host's launch floor. Other inputs: none.
struct ProfilerCost {
  double events_per_step = 0;
  double ms = 0;                  // per step, as taken off the traced step
  double step_ms_unprofiled = 0;  // the traced step less ms
  double us_per_event = 0;        // the profiler's cost assumed per event
  const char* tracer = "";        // whose work it is, in words
  bool any() const { return ms > 0; }
};

ProfilerCost profiler_host_cost(const Context& ctx, bool high = false) {
  ProfilerCost c;
  const auto& s = ctx.steps.summary;
  // A run file's tracer records runtime calls only (`record --api`), each costing the host far less.
  const bool kineto = ctx.profile.source == "kineto", run_file = ctx.profile.source == "cuprobe-run";
  if ((!kineto && !run_file) || !ctx.has_steps() || s.median_ms <= 0) return c;
  double us_per_event = kineto ? (high ? thresholds::kProfilerHostUsPerEventHigh : thresholds::kProfilerHostUsPerEvent)
                               : (high ? thresholds::kRecordApiUsPerCallHigh : thresholds::kRecordApiUsPerCall);
  c.tracer = kineto ? "torch.profiler's own host work" : "the recorder's own host work (record --api)";
  std::vector<std::pair<TimeNs, TimeNs>> spans;  // CPU side of each step, by start
  for (const Step& st : s.steps) {
    if (st.cpu_end > st.cpu_start) spans.emplace_back(st.cpu_start, st.cpu_end);
  }
  if (spans.empty()) return c;
  std::sort(spans.begin(), spans.end());
  std::vector<double> counts(spans.size(), 0.0);
  auto count = [&](TimeNs start) {
    auto it = std::upper_bound(spans.begin(), spans.end(), std::make_pair(start, INT64_MAX));
    if (it == spans.begin()) return;
    --it;
    if (start < it->second) counts[static_cast<std::size_t>(it - spans.begin())] += 1;
  };
  for (const CpuRange& r : ctx.profile.cpu) {
    if (kineto ? r.kind != CpuRangeKind::kOther : r.kind == CpuRangeKind::kRuntime) count(r.start);
  }
  for (TimeNs t : ctx.profile.unkept_starts) count(t);  // Python frames of torch and the libraries
  c.events_per_step = percentile(counts, 50);
  if (c.events_per_step <= 0) return ProfilerCost{};
  c.us_per_event = us_per_event;
  double now = s.median_ms;
  double floor = s.gpu_median_ms;
  if (auto host = host_launch_floor(ctx.what_if_inputs())) floor = std::max(floor, host->ms);
  c.step_ms_unprofiled = std::max(std::min(now, floor), now - c.events_per_step * us_per_event / 1e3);
  c.ms = now - c.step_ms_unprofiled;
  return c;
}

// The share of the step without the profiler that `traced_ms` of the traced step's GPU idle stands for: the
// profiler's cost is taken off the idle in proportion (it lands wherever the host runs, so in every kind of gap).
double unprofiled_share(const Context& ctx, const ProfilerCost& cost, double traced_ms) {
  double now = ctx.step_ms_now();
  if (!cost.any()) return now > 0 ? traced_ms / now : 0.0;
  double idle = now - ctx.steps.summary.gpu_median_ms;
  double kept = idle > 0 ? std::max(0.0, idle - cost.ms) / idle : 0.0;
  return cost.step_ms_unprofiled > 0 ? std::min(1.0, traced_ms * kept / cost.step_ms_unprofiled) : 0.0;
}

std::string unprofiled_note(const ProfilerCost& cost, double share, double now, const ProfilerCost* least = nullptr) {
  if (!cost.any()) return "";
  if (least && least->step_ms_unprofiled < cost.step_ms_unprofiled)
    return "; without " + std::string(cost.tracer) + " (" + format_fixed(cost.us_per_event, 1) + "-" +
           format_fixed(least->us_per_event, 1) + " us for each of the " + format_fixed(cost.events_per_step, 0) +
           " events it records per step) the step would take " + format_duration_ms(least->step_ms_unprofiled) +
           " to " + format_duration_ms(cost.step_ms_unprofiled) + ", and this saves at least " + format_percent(share) +
           " of it (on this trace's step: " + format_duration_ms(now * (1 - share)) + ")";
  return "; without " + std::string(cost.tracer) + " (about " + format_fixed(cost.us_per_event, 1) +
         " us for each of the " + format_fixed(cost.events_per_step, 0) + " events it records per step) the step " +
         "would take about " + format_duration_ms(cost.step_ms_unprofiled) + ", and this saves " +
         format_percent(share) + " of it (on this trace's step: " + format_duration_ms(now * (1 - share)) + ")";
}

void gpu_idle(Context& ctx, const HostCalls& calls, const ProfilerCost& estimate) {
  double idle = idle_share(ctx);
  double now = ctx.step_ms_now();
  double after = ctx.has_steps() ? ctx.steps.summary.gpu_median_ms : ctx.analysis.gpu_busy_ms;
  // Judged on the step without the profiler's own host work (the traced idle where there is none). It claims all of
  // the idle, so its claim must hold however much of it the profiler made: the profiler's cost at the high end of
  // what was measured (kProfilerHostUsPerEventHigh), the step without it at its shortest, the share saved at its
  // least. Whether it fires is judged on the estimate all findings use.
  if (std::min(idle, unprofiled_share(ctx, estimate, now - after)) < thresholds::kIdleMedium) return;
  ProfilerCost cost = estimate.any() ? profiler_host_cost(ctx, true) : estimate;
  double saved = unprofiled_share(ctx, cost, now - after);
  // Nothing it can promise (the tracer's cost may be all of the idle): silent, as a pattern under 1% is.
  if (saved < thresholds::kPatternMinStepShare) return;
  Finding f;
  f.id = "gpu_idle";
  f.share = idle;
  f.step_share = idle;
  const auto& s = ctx.steps.summary;
  // A rank on several GPUs: idle is the time none of them works (pipeline_bubble covers their waits on each other).
  std::size_t gpus = ctx.analysis.devices.size();
  std::string who = gpus > 1 ? "All " + std::to_string(gpus) + " GPUs idle " : "GPU idle ";
  std::string busy = gpus > 1 ? " time any GPU works in a " : " GPU time in a ";
  if (ctx.has_steps()) {
    f.title = who + format_percent(idle) + " of each step (" + format_duration_ms(s.gpu_median_ms) + busy +
              format_duration_ms(s.median_ms) + " step): host- or launch-bound";
  } else {
    f.title = who + format_percent(idle) + " of the trace window: host- or launch-bound" + ctx.window_note();
  }
  std::string syncs = calls.seen ? format_fixed(calls.syncs, 1) + (ctx.has_steps() ? " per step here: " : " here: ") +
                                       ".item(), .cpu(), printing tensors"
                                 : ".item(), .cpu(), printing tensors; `cuprobe record --api` counts them";
  f.suggestion =
      "The GPU waits for the CPU. Capture the step in a CUDA graph (torch.compile mode=\"reduce-overhead\", "
      "or the engine's CUDA-graph option), remove per-step synchronizations (" +
      syncs + "), and move host-side work (sampling, stopping checks) off the critical path or onto the GPU.";
  f.numbers = {{"idle_share", idle}};
  // The step with the GPU busy time as its floor, as a CUDA graph gets close to.
  f.what_if = {"the GPU never waiting for the host (the " + ctx.step_word() +
                   " replayed as a CUDA graph): " + ctx.step_word() + " = GPU busy time " + format_duration_ms(after) +
                   unprofiled_note(estimate, saved, now, &cost),
               now, std::nullopt, cost.any() ? now * (1 - saved) : after};
  if (cost.any())
    f.numbers.insert(f.numbers.end(), {{"profiler_events_per_step", cost.events_per_step},
                                       {"step_ms_without_profiler", estimate.step_ms_unprofiled},
                                       {"step_ms_without_profiler_least", cost.step_ms_unprofiled}});
  f.claim.generic = true;  // the idle launch_bound does not explain: host work
  f.claim.idle_ms = now - *f.what_if.step_ms_after_alone;
  f.claim.changes_launches = true;  // a CUDA graph, no synchronize: the host's launch time goes too
  if (calls.seen)
    f.numbers.insert(f.numbers.end(), {{"launches_per_step", calls.launches}, {"syncs_per_step", calls.syncs}});
  ctx.analysis.findings.push_back(std::move(f));
}

// The share of step time (of the window without steps) that the GPU idles in
// gaps of at most thresholds::kLaunchGapUs between its activities: gaps a launch
// can explain, where longer ones are host work.
// With steps, of the typical step: the median over the steps of each one's short gaps over its time (a warm-up step
// of long gaps decides nothing).
double short_gap_share(const Context& ctx) {
  TimeNs short_ns = 0, last_end = 0;
  bool any = false;
  std::vector<double> by_step(ctx.steps.summary.steps.size(), 0.0);
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    const auto& a = ctx.profile.gpu[i];
    if (!ctx.counted(i)) continue;
    TimeNs gap = any ? a.start - last_end : 0;
    if (gap > 0 && static_cast<double>(gap) <= thresholds::kLaunchGapUs * 1e3) {
      short_ns += gap;
      if (ctx.has_steps()) by_step[static_cast<std::size_t>(ctx.steps.activity_step[i])] += static_cast<double>(gap);
    }
    last_end = any ? std::max(last_end, a.end) : a.end;
    any = true;
  }
  if (ctx.has_steps()) {
    std::vector<double> shares;
    const auto& list = ctx.steps.summary.steps;
    for (std::size_t s = 0; s < list.size(); ++s) {
      if (list[s].time > 0) shares.push_back(by_step[s] / static_cast<double>(list[s].time));
    }
    return shares.empty() ? 0.0 : std::min(1.0, percentile(shares, 50));
  }
  double total_ms = ctx.analysis.window_ms;
  return total_ms > 0 ? std::min(1.0, static_cast<double>(short_ns) / 1e6 / total_ms) : 0.0;
}

// Steps replayed from CUDA graphs: the host launches one graph, not its kernels, so
// the short gaps between them are the graph's own node-to-node latency (widened by
// per-node tracing), not launches a graph would remove.
bool steps_are_graph_replays(const Context& ctx, std::size_t kernels) {
  const std::string& source = ctx.steps.summary.source;
  if (source == "graph replay" || source == "graph launch") return true;
  std::size_t in_graphs = 0;
  for (const auto& a : ctx.profile.gpu) {
    if (a.kind == GpuActivityKind::kKernel && a.graph_id >= 0) ++in_graphs;
  }
  return kernels > 0 && in_graphs * 2 >= kernels;
}

// Adds to each step (but the last) the GPU idle after its last activity until the next step's first, where it is
// longer than a launch gap and the step does not end on a read-back (a device-to-host copy after its last kernel,
// whatever small copies or memsets follow it: the host waited for the step's result) or a pageable host copy.
void add_gaps_between_steps(const Context& ctx, std::vector<double>& by_step) {
  const auto& list = ctx.steps.summary.steps;
  std::vector<long> last(list.size(), -1), last_kernel(list.size(), -1);
  auto later = [&](long l, std::size_t i) { return l < 0 || ctx.profile.gpu[i].end >= ctx.profile.gpu[l].end; };
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    int st = ctx.steps.activity_step[i];
    if (st < 0) continue;
    auto s = static_cast<std::size_t>(st);
    if (later(last[s], i)) last[s] = static_cast<long>(i);
    if (ctx.profile.gpu[i].kind == GpuActivityKind::kKernel && later(last_kernel[s], i))
      last_kernel[s] = static_cast<long>(i);
  }
  std::vector<bool> ends_on_read_back(list.size(), false);
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    int st = ctx.steps.activity_step[i];
    const GpuActivity& a = ctx.profile.gpu[i];
    if (st < 0 || a.kind != GpuActivityKind::kMemcpy) continue;
    long k = last_kernel[static_cast<std::size_t>(st)];
    bool after = k < 0 || a.start >= ctx.profile.gpu[static_cast<std::size_t>(k)].end;
    if (after && (a.memcpy_kind == MemcpyKind::kDtoH || pageable_host_copy(ctx.profile, a)))
      ends_on_read_back[static_cast<std::size_t>(st)] = true;
  }
  for (std::size_t st = 0; st + 1 < list.size() && st < by_step.size(); ++st) {
    if (last[st] < 0 || list[st + 1].gpu_start <= 0 || ends_on_read_back[st]) continue;
    const GpuActivity& a = ctx.profile.gpu[static_cast<std::size_t>(last[st])];
    double gap_ms = static_cast<double>(list[st + 1].gpu_start - a.end) / 1e6;
    if (gap_ms * 1e3 > thresholds::kLaunchGapUs) by_step[st] += gap_ms;
  }
}

void launch_bound(Context& ctx, const HostCalls& calls, const ProfilerCost& cost) {
  std::vector<double> durations_us;
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    const auto& a = ctx.profile.gpu[i];
    if (a.kind == GpuActivityKind::kKernel && ctx.counted(i))
      durations_us.push_back(static_cast<double>(a.duration()) / 1e3);
  }
  if (durations_us.empty() || steps_are_graph_replays(ctx, durations_us.size())) return;
  double median_us = percentile(durations_us, 50);
  double kernels_per_step = static_cast<double>(durations_us.size()) / (ctx.has_steps() ? ctx.step_count() : 1.0);
  double now = ctx.step_ms_now();
  double idle = std::min(idle_share(ctx), unprofiled_share(ctx, cost, now * idle_share(ctx)));
  if (median_us > thresholds::kShortKernelUs || idle < thresholds::kLaunchBoundIdle ||
      kernels_per_step < thresholds::kLaunchBoundMinKernelsPerStep) {
    return;
  }
  double step_us = now * 1e3;
  double launch_cost = step_us > 0 ? calls.launches * calls.launch_us_mean / step_us : 0;
  Finding f;
  f.id = "launch_bound";
  // Judged on the GPU timeline, which every input has: the idle in gaps short enough
  // for a launch to explain. The launch calls' cost (torch traces, `record --api`) is
  // a number beside it.
  double short_gaps = short_gap_share(ctx);
  // Where the trace has launch calls: the longer gaps inside steps in which the launching thread ran the framework
  // (operators, launches; step_gaps.h) are launch overhead too, which one CUDA graph launch removes.
  double framework_ms = 0;
  // Only where launching is the bottleneck: a kernel on the GPU takes less, on average, than a launch call on the
  // host (else the host keeps ahead, and gaps it leaves are the profiler's cost per operator, not the launches').
  double busy_per_kernel_us =
      ctx.has_steps() && kernels_per_step > 0 ? ctx.steps.summary.gpu_median_ms * 1e3 / kernels_per_step : 0;
  // Without launch calls (a run file recorded without --api) the gaps inside the step that neither a read-back, an
  // allocation nor a pageable copy explains are counted: the trace cannot tell them from launching.
  bool no_calls = !calls.seen || calls.launches <= 0;
  // A step that stops inside on read-backs (a data-dependent shape, .item(): at least kReadBacksPerStep gaps after a
  // device-to-host copy inside the typical step, as sync_inside_step counts them) cannot be one CUDA graph: its longer
  // gaps are the host catching up after each stop, not launch overhead a graph removes.
  std::vector<StepGap> gaps =
      ctx.has_steps() ? step_gaps(ctx.profile, ctx.steps, ctx.launches) : std::vector<StepGap>{};
  std::vector<double> stops(ctx.steps.summary.steps.size(), 0.0);
  for (const auto& g : gaps) {
    const GpuActivity& prev = ctx.profile.gpu[g.after];
    if (prev.kind == GpuActivityKind::kMemcpy && prev.memcpy_kind == MemcpyKind::kDtoH) stops[g.step] += 1;
  }
  bool stops_inside = !stops.empty() && percentile(stops, 50) >= thresholds::kReadBacksPerStep;
  if (ctx.has_steps() && now > 0 && !stops_inside && (no_calls || (busy_per_kernel_us < calls.launch_us_mean))) {
    // The typical step's: the median over the steps (a first step holding the warm-up's long gaps decides nothing).
    std::vector<double> by_step(ctx.steps.summary.steps.size(), 0.0);
    for (const auto& g : gaps) {
      if ((g.framework || no_calls) && g.cause == GapCause::kOther && g.ms() * 1e3 > thresholds::kLaunchGapUs)
        by_step[g.step] += g.ms();
    }
    // Without launch calls, the idle from a step's last activity to the next step's first is launching too (the
    // program's loop launching its next step), unless a read-back or a pageable copy ends the step.
    if (no_calls) add_gaps_between_steps(ctx, by_step);
    framework_ms = percentile(by_step, 50) * ctx.step_count();
    short_gaps = std::min(1.0, short_gaps + framework_ms / ctx.step_count() / now);
  }
  // The profiler's own host work is in those gaps: off them first.
  f.step_share = std::min(idle, unprofiled_share(ctx, cost, short_gaps * now));
  f.share = f.step_share;
  f.title = format_fixed(kernels_per_step, 0) + (ctx.has_steps() ? " kernels per step" : " kernels") +
            " with a median of " + format_fixed(median_us, 1) + " us" + ctx.window_note() + ": ";
  f.title += calls.launches > 0
                 ? "too short to hide the " + format_fixed(calls.launch_us_mean, 1) + " us it takes to launch each"
                 : "too short to hide their launches (" + std::string(kNoHostCalls) + ")";
  f.suggestion =
      "Cut launches per step: CUDA graphs replay the whole step with one launch; fuse small elementwise "
      "and norm kernels (torch.compile, fused RMSNorm/rotary/activation kernels); batch more requests "
      "per step so each kernel does more work.";
  f.numbers = {
      {"kernels_per_step", kernels_per_step}, {"median_kernel_us", median_us}, {"short_gap_share", short_gaps}};
  if (framework_ms > 0) f.numbers.emplace_back("framework_gap_ms_per_step", framework_ms / ctx.step_count());
  if (calls.launches > 0) {
    f.numbers.emplace_back("launch_api_us_mean", calls.launch_us_mean);
    f.numbers.emplace_back("launch_call_share", std::min(1.0, launch_cost));
  }
  // The gaps a launch explains gone, as when the step is launched as one CUDA graph (the longer ones, host work,
  // are gpu_idle's).
  double after = now - f.step_share * now;
  f.what_if = {"the GPU's gaps of up to " + format_fixed(thresholds::kLaunchGapUs, 0) + " us between its kernels" +
                   (framework_ms > 0 ? ", and the longer ones in which the host ran the framework," : "") +
                   " gone (the step launched as one CUDA graph): " + ctx.step_word() + " " +
                   format_duration_ms(cost.any() ? now - short_gaps * now : after) +
                   unprofiled_note(cost, f.step_share, now),
               now, std::nullopt, after};
  if (cost.any()) f.numbers.emplace_back("step_ms_without_profiler", cost.step_ms_unprofiled);
  f.claim.idle_ms = now - after;
  f.claim.changes_launches = true;
  ctx.analysis.findings.push_back(std::move(f));
}

// One process's GPUs taking turns (a pipeline across GPUs without micro-batches: Hugging Face device_map="auto"):
// each idles while another works. Judged by what overlapping their work would save.
void pipeline_bubble(Context& ctx) {
  const auto& devices = ctx.analysis.devices;
  if (devices.size() < 2 || ctx.analysis.overlapped_step_ms <= 0) return;
  double now = ctx.step_ms_now();
  double after = std::min(now, ctx.analysis.overlapped_step_ms);
  double saved = now > 0 ? (now - after) / now : 0.0;
  if (saved < thresholds::kBubbleMedium) return;
  auto least = std::min_element(devices.begin(), devices.end(), [](const DeviceRow& a, const DeviceRow& b) {
    return a.waiting_share < b.waiting_share;
  });
  auto most = std::max_element(devices.begin(), devices.end(), [](const DeviceRow& a, const DeviceRow& b) {
    return a.waiting_share < b.waiting_share;
  });
  Finding f;
  f.id = "pipeline_bubble";
  f.share = saved;
  f.step_share = saved;
  std::string range =
      format_percent(least->waiting_share) +
      (most->waiting_share - least->waiting_share >= 0.005 ? "-" + format_percent(most->waiting_share) : std::string());
  f.title = std::to_string(devices.size()) + " GPUs take turns: each waits " + range + " of the " + ctx.step_word() +
            " while another works";
  f.suggestion =
      "One process runs its GPUs one after another (Hugging Face device_map=\"auto\", a pipeline fed one batch at "
      "a time), so mostly one GPU works at a time. Split each layer across the GPUs instead (tensor parallelism: "
      "vLLM/SGLang --tensor-parallel-size), feed the pipeline several micro-batches so the GPUs overlap, or fit the "
      "model on fewer GPUs.";
  f.numbers = {{"gpus", static_cast<double>(devices.size())}};
  for (const DeviceRow& d : devices) {
    f.numbers.emplace_back("gpu" + std::to_string(d.device) + "_busy_share", 1.0 - d.idle_share);
    f.numbers.emplace_back("gpu" + std::to_string(d.device) + "_waiting_share", d.waiting_share);
  }
  f.what_if = {"the GPUs' work overlapped (tensor parallel, or a pipeline kept full): " + ctx.step_word() +
                   " = time no GPU works + the busiest GPU's busy time " + format_duration_ms(after) +
                   " (a bound: splitting the work adds communication)",
               now, std::nullopt, after};
  f.claim.own_ms = now - after;
  ctx.analysis.findings.push_back(std::move(f));
}

}  // namespace

void add_host_findings(FindingsContext& ctx) {
  HostCalls calls = host_calls(ctx);
  ProfilerCost cost = profiler_host_cost(ctx);
  gpu_idle(ctx, calls, cost);
  launch_bound(ctx, calls, cost);
  pipeline_bubble(ctx);
}

}  // namespace cuprobe
