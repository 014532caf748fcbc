#include "analysis/findings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "analysis/findings_what_if.h"
#include "analysis/launch_context.h"
#include "analysis/thresholds.h"
#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {
namespace {

// Everything the individual findings share.
struct Context {
  const Profile& profile;
  const std::vector<KernelClass>& classes;
  const StepAssignment& steps;
  RankAnalysis& analysis;
  const WorkAttribution& work;
  LaunchContext launches;
  WhatIfInputs what_if_inputs() const { return {profile, classes, steps, work, analysis}; }
  double step_ms_now() const { return what_if_inputs().step_ms_now(); }
  // A GPU time total (the window's, or in-step with steps) per step.
  double per_step_ms(const CategoryRow& row) const { return has_steps() ? row.per_step_ms : row.time_ms; }
  std::string step_word() const { return has_steps() ? "step" : "trace window"; }
  bool has_steps() const { return !steps.summary.steps.empty(); }
  double step_count() const { return static_cast<double>(steps.summary.steps.size()); }

  // Fraction of step time (or of the window without steps) that GPU time t explains.
  double step_share_of(double per_step_ms, double total_ms) const {
    if (has_steps() && steps.summary.median_ms > 0) return std::min(1.0, per_step_ms / steps.summary.median_ms);
    return analysis.window_ms > 0 ? std::min(1.0, total_ms / analysis.window_ms) : 0.0;
  }
  const CategoryRow* category(Category c) const {
    for (const auto& row : analysis.categories) {
      if (row.category == c) return &row;
    }
    return nullptr;
  }
  std::vector<std::string> top_kernels(Category c, std::size_t n) const {
    std::vector<std::string> names;
    for (const auto& k : analysis.kernels) {
      if (k.category == c && names.size() < n) names.push_back(k.name);
    }
    return names;
  }
};

// A finding about one category's share of GPU time, with its numbers and top
// kernels filled in; nullopt below the medium threshold.
std::optional<Finding> category_share_finding(const Context& ctx, Category category, const char* id, double medium,
                                              double high) {
  const CategoryRow* row = ctx.category(category);
  if (!row || row->share < medium) return std::nullopt;
  Finding f;
  f.id = id;
  f.share = row->share;
  f.step_share = ctx.step_share_of(row->per_step_ms, row->time_ms);
  f.severity = severity_for_share(row->share, medium, high);
  f.kernels = ctx.top_kernels(category, 3);
  f.numbers = {
      {"time_ms", row->time_ms}, {"calls", static_cast<double>(row->calls)}, {"per_step_ms", row->per_step_ms}};
  return f;
}

// Bytes and bandwidth in the title, and the step with the cast fixed two ways: only the
// gathered entries cast (where the trace shows a gather reading part of the cast tensor),
// or the cast at copy bandwidth; the larger gain is the what-if.
void copy_cast_what_if(const Context& ctx, Finding& f) {
  WhatIf& w = f.what_if;
  w.step_ms_now = ctx.step_ms_now();
  CopyCastWork c = copy_cast_work(ctx.what_if_inputs(), f.kernels.empty() ? std::string() : f.kernels.front());
  if (!c.known) {
    w.description = ctx.work.shapes ? "bytes unknown: no copy's operator shapes are in the trace, so no projection"
                                    : "bytes unknown: the trace has no operator shapes (torch.profiler "
                                      "record_shapes=True records them), so no projection";
    return;
  }
  std::string per = ctx.has_steps() ? " per step" : "";
  std::string what = c.casts ? "casts " : "copies ";
  f.title += "; " + what;
  if (c.calls_per_step > 1.5) {
    f.title += format_bytes(c.bytes_per_call) + " per layer" + per + " (" + format_bytes(c.bytes_per_step) + per + ")";
  } else {
    f.title += format_bytes(c.bytes_per_step) + per;
  }
  f.title += " at " + format_fixed(c.tbps, 2) + " TB/s";
  if (c.peak_share) f.title += ", " + format_percent(*c.peak_share) + " of the memory bandwidth peak";
  f.numbers.insert(
      f.numbers.end(),
      {{"bytes_per_step", c.bytes_per_step}, {"bytes_per_call", c.bytes_per_call}, {"achieved_tbps", c.tbps}});
  if (c.peak_share) f.numbers.emplace_back("peak_share", *c.peak_share);
  std::string gathered, at_copy;
  if (c.after_gathered_ms) {
    gathered = "only the gathered entries cast (" + format_percent(c.gathered_fraction) +
               " of the cast elements): " + ctx.step_word() + " " + format_duration_ms(*c.after_gathered_ms);
    f.numbers.emplace_back("step_ms_after_gathered_only", *c.after_gathered_ms);
  }
  if (c.after_copy_bandwidth_ms) {
    at_copy = "the " + std::string(c.casts ? "cast" : "copy") + " at copy bandwidth (" +
              format_fixed(*ctx.analysis.peaks->memory_tbps * thresholds::kCopyBandwidthShare, 2) +
              " TB/s): " + ctx.step_word() + " " + format_duration_ms(*c.after_copy_bandwidth_ms);
    f.numbers.emplace_back("step_ms_after_copy_bandwidth", *c.after_copy_bandwidth_ms);
  }
  bool gather_first =
      c.after_gathered_ms && (!c.after_copy_bandwidth_ms || *c.after_gathered_ms <= *c.after_copy_bandwidth_ms);
  if (gather_first) {
    w.step_ms_after = c.after_gathered_ms;
    w.description = gathered + (at_copy.empty() ? "" : "; with " + at_copy);
  } else if (c.after_copy_bandwidth_ms) {
    w.step_ms_after = c.after_copy_bandwidth_ms;
    w.description = at_copy + (gathered.empty() ? "" : "; with " + gathered);
  } else {
    w.description = ctx.analysis.peaks ? "the copies already run near copy bandwidth; only moving fewer bytes helps"
                                       : "no projection: the GPU's memory bandwidth is unknown (give --peak bw=TBPS)";
  }
}

void copy_cast_dominant(Context& ctx) {
  auto found = category_share_finding(ctx, Category::kCopyCast, "copy_cast_dominant", thresholds::kCopyCastMedium,
                                      thresholds::kCopyCastHigh);
  if (!found) return;
  Finding& f = *found;
  const CategoryRow* row = ctx.category(Category::kCopyCast);
  std::string origin;
  if (!f.kernels.empty()) {
    // Which operator launches the top copy kernel, most often.
    std::map<std::string, int> paths;
    int looked = 0;
    for (const auto& a : ctx.profile.gpu) {
      if (looked >= 32) break;
      if (ctx.profile.name_of(a.name) != f.kernels.front()) continue;
      ++looked;
      std::string path = ctx.launches.operator_path(a.correlation);
      if (!path.empty()) ++paths[path];
    }
    if (!paths.empty()) {
      origin =
          std::max_element(paths.begin(), paths.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
    }
  }
  f.title = "copies/casts take " + format_percent(row->share) + " of GPU time";
  if (ctx.has_steps()) {
    f.title += " (" + format_duration_ms(row->per_step_ms) + " of each " +
               format_duration_ms(ctx.steps.summary.median_ms) + " step)";
  }
  if (!origin.empty()) f.title += ", launched from " + origin;
  copy_cast_what_if(ctx, f);
  f.suggestion =
      "Find what is copied or cast every step and shrink it: cast only the entries the step uses "
      "(gather the active KV entries before casting instead of casting the whole pool), keep tensors in the "
      "dtype/layout their consumer needs, or fuse the cast into the consuming kernel.";
  ctx.analysis.findings.push_back(std::move(f));
}

void low_tensor_core_share(Context& ctx) {
  const auto& a = ctx.analysis;
  if (a.gpu_time_ms() <= 0 || a.tensor_core_share >= thresholds::kTensorCoreLow) return;
  const CategoryRow* graphs = ctx.category(Category::kCudaGraph);
  if (graphs && graphs->share >= thresholds::kOpaqueGraphNoTensorFinding)
    return;  // unknowable: see graphs_recorded_whole
  double cuda_core_matmul_ms = 0;
  std::vector<std::string> cuda_core_matmuls;
  for (const auto& k : a.kernels) {
    bool matmul = k.category == Category::kGemm || k.category == Category::kAttention || k.category == Category::kMoe ||
                  k.category == Category::kConv;
    if (matmul && k.tensor_core == false) {
      cuda_core_matmul_ms += k.time_ms;
      if (cuda_core_matmuls.size() < 3) cuda_core_matmuls.push_back(k.name);
    }
  }
  double cuda_core_share = cuda_core_matmul_ms / a.gpu_time_ms();
  Finding f;
  f.id = "low_tensor_core_share";
  f.share = cuda_core_share;
  f.step_share = ctx.step_share_of(ctx.has_steps() ? cuda_core_matmul_ms / ctx.step_count() : 0, cuda_core_matmul_ms);
  if (cuda_core_share >= thresholds::kCudaCoreMatmulHigh)
    f.severity = "high";
  else if (a.tensor_core_share < thresholds::kTensorCoreVeryLow)
    f.severity = "medium";
  else
    f.severity = "low";
  f.title = "only " + format_percent(a.tensor_core_share) + " of GPU time runs on tensor cores";
  constexpr double kWorthNaming = 0.05;  // below this, CUDA-core matmuls are split-K reductions and the like
  if (!cuda_core_matmuls.empty() && cuda_core_share >= kWorthNaming) {
    f.title += "; matmul kernels on CUDA cores take " + format_percent(cuda_core_share);
    f.kernels = cuda_core_matmuls;
    f.suggestion =
        "Matmul-class kernels are running without tensor cores: check the dtypes reaching them (fp32 inputs, "
        "an unsupported fp8/fp4 layout or shape that fell back to a generic kernel) and the backend chosen; "
        "confirm with `cuprobe sample` that the tensor pipes are idle.";
  } else {
    f.suggestion =
        "The GPU's time goes to work outside the tensor cores (see the categories above): shrink the largest "
        "non-matmul category first; batching more requests raises the matmul share.";
  }
  f.numbers = {{"tensor_core_share", a.tensor_core_share}, {"cuda_core_matmul_ms", cuda_core_matmul_ms}};
  f.what_if.step_ms_now = ctx.step_ms_now();
  f.what_if.step_ms_after = non_matmul_at_roofline_ms(ctx.what_if_inputs());
  if (f.what_if.step_ms_after) {
    f.what_if.description = "the non-matmul kernels whose work is known at their roofline: " + ctx.step_word() + " " +
                            format_duration_ms(*f.what_if.step_ms_after);
  } else {
    f.what_if.description =
        std::string("no projection: it needs ") +
        (!ctx.work.shapes ? "operator shapes (torch.profiler record_shapes=True)" : "the GPU's peaks (give --peak)");
  }
  ctx.analysis.findings.push_back(std::move(f));
}

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

// gpu_idle and launch_bound: the step with the GPU busy time as its floor, as a CUDA graph gets close to.
void busy_floor_what_if(const Context& ctx, Finding& f) {
  const auto& s = ctx.steps.summary;
  f.what_if.step_ms_now = ctx.step_ms_now();
  f.what_if.step_ms_after = ctx.has_steps() ? s.gpu_median_ms : ctx.analysis.gpu_busy_ms;
  f.what_if.description = "the GPU never waiting for the host (the " + ctx.step_word() +
                          " replayed as a CUDA graph): " + ctx.step_word() + " = GPU busy time " +
                          format_duration_ms(*f.what_if.step_ms_after);
}

double idle_share(const Context& ctx) {
  const auto& s = ctx.steps.summary;
  if (!s.steps.empty() && s.median_ms > 0) return std::clamp(1.0 - s.gpu_median_ms / s.median_ms, 0.0, 1.0);
  return std::clamp(1.0 - ctx.analysis.gpu_busy_share, 0.0, 1.0);
}

void gpu_idle(Context& ctx, const HostCalls& calls) {
  double idle = idle_share(ctx);
  if (idle < thresholds::kIdleMedium) return;
  Finding f;
  f.id = "gpu_idle";
  f.share = idle;
  f.step_share = idle;
  f.severity = idle >= thresholds::kIdleHigh ? "high" : "medium";
  const auto& s = ctx.steps.summary;
  // A rank on several GPUs: idle is the time none of them works (pipeline_bubble covers their waits on each other).
  std::size_t gpus = ctx.analysis.devices.size();
  std::string who = gpus > 1 ? "All " + std::to_string(gpus) + " GPUs idle " : "GPU idle ";
  std::string busy = gpus > 1 ? " time any GPU works in a " : " GPU time in a ";
  if (ctx.has_steps()) {
    f.title = who + format_percent(idle) + " of each step (" + format_duration_ms(s.gpu_median_ms) + busy +
              format_duration_ms(s.median_ms) + " step): host- or launch-bound";
  } else {
    f.title = who + format_percent(idle) + " of the trace window: host- or launch-bound";
  }
  std::string syncs = calls.seen ? format_fixed(calls.syncs, 1) + (ctx.has_steps() ? " per step here: " : " here: ") +
                                       ".item(), .cpu(), printing tensors"
                                 : ".item(), .cpu(), printing tensors; `cuprobe record --api` counts them";
  f.suggestion =
      "The GPU waits for the CPU. Capture the step in a CUDA graph (torch.compile mode=\"reduce-overhead\", "
      "or the engine's CUDA-graph option), remove per-step synchronizations (" +
      syncs + "), and move host-side work (sampling, stopping checks) off the critical path or onto the GPU.";
  f.numbers = {{"idle_share", idle}};
  busy_floor_what_if(ctx, f);
  if (calls.seen)
    f.numbers.insert(f.numbers.end(), {{"launches_per_step", calls.launches}, {"syncs_per_step", calls.syncs}});
  ctx.analysis.findings.push_back(std::move(f));
}

// The share of step time (of the window without steps) that the GPU idles in
// gaps of at most thresholds::kLaunchGapUs between its activities: gaps a launch
// can explain, where longer ones are host work.
double short_gap_share(const Context& ctx) {
  TimeNs short_ns = 0, last_end = 0;
  bool any = false;
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    const auto& a = ctx.profile.gpu[i];
    if (ctx.has_steps() && ctx.steps.activity_step[i] < 0) continue;
    TimeNs gap = any ? a.start - last_end : 0;
    if (gap > 0 && static_cast<double>(gap) <= thresholds::kLaunchGapUs * 1e3) short_ns += gap;
    last_end = any ? std::max(last_end, a.end) : a.end;
    any = true;
  }
  double total_ms = ctx.analysis.window_ms;
  if (ctx.has_steps()) {
    total_ms = 0;
    for (const Step& s : ctx.steps.summary.steps) total_ms += static_cast<double>(s.time) / 1e6;
  }
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

void launch_bound(Context& ctx, const HostCalls& calls) {
  std::vector<double> durations_us;
  for (const auto& a : ctx.profile.gpu) {
    if (a.kind == GpuActivityKind::kKernel) durations_us.push_back(static_cast<double>(a.duration()) / 1e3);
  }
  if (durations_us.empty() || steps_are_graph_replays(ctx, durations_us.size())) return;
  double median_us = percentile(durations_us, 50);
  double kernels_per_step = static_cast<double>(durations_us.size()) / (ctx.has_steps() ? ctx.step_count() : 1.0);
  double idle = idle_share(ctx);
  if (median_us > thresholds::kShortKernelUs || idle < thresholds::kLaunchBoundIdle ||
      kernels_per_step < thresholds::kLaunchBoundMinKernelsPerStep) {
    return;
  }
  double step_us = ctx.has_steps() ? ctx.steps.summary.median_ms * 1e3 : ctx.analysis.window_ms * 1e3;
  double launch_cost = step_us > 0 ? calls.launches * calls.launch_us_mean / step_us : 0;
  Finding f;
  f.id = "launch_bound";
  // Judged on the GPU timeline, which every input has: the idle in gaps short enough
  // for a launch to explain. The launch calls' cost (torch traces, `record --api`) is
  // a number beside it, never the severity.
  double short_gaps = short_gap_share(ctx);
  f.step_share = std::min(idle, short_gaps);
  f.share = f.step_share;
  f.severity = severity_for_share(f.step_share, 0.2, thresholds::kSevereShare);
  f.title =
      format_fixed(kernels_per_step, 0) + " kernels per step with a median of " + format_fixed(median_us, 1) + " us: ";
  f.title += calls.launches > 0
                 ? "too short to hide the " + format_fixed(calls.launch_us_mean, 1) + " us it takes to launch each"
                 : "too short to hide their launches (" + std::string(kNoHostCalls) + ")";
  f.suggestion =
      "Cut launches per step: CUDA graphs replay the whole step with one launch; fuse small elementwise "
      "and norm kernels (torch.compile, fused RMSNorm/rotary/activation kernels); batch more requests "
      "per step so each kernel does more work.";
  f.numbers = {
      {"kernels_per_step", kernels_per_step}, {"median_kernel_us", median_us}, {"short_gap_share", short_gaps}};
  if (calls.launches > 0) {
    f.numbers.emplace_back("launch_api_us_mean", calls.launch_us_mean);
    f.numbers.emplace_back("launch_call_share", std::min(1.0, launch_cost));
  }
  busy_floor_what_if(ctx, f);
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
  f.severity = saved >= thresholds::kBubbleHigh ? "high" : "medium";
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
               now, after};
  ctx.analysis.findings.push_back(std::move(f));
}

void graphs_recorded_whole(Context& ctx) {
  auto found =
      category_share_finding(ctx, Category::kCudaGraph, "graphs_recorded_whole", thresholds::kOpaqueGraphShare, 2.0);
  if (!found) return;
  Finding& f = *found;
  const CategoryRow* row = ctx.category(Category::kCudaGraph);
  f.severity = "low";  // a property of the recording, not of the program
  f.step_share = 0;
  f.title = "whole CUDA graph launches take " + format_percent(f.share) + " of GPU time (" +
            std::to_string(row->calls) + " launches, " +
            format_duration_ms(row->time_ms / static_cast<double>(row->calls)) +
            " each): the kernels inside are not seen";
  f.suggestion =
      "The run was recorded one record per graph launch (`--graphs whole` or `events`: cheap). For the per-kernel "
      "breakdown, record a short window with every kernel: `cuprobe record --graphs node --delay 60s "
      "--duration 5s -- ...`.";
  f.what_if = {"none: a property of the recording, not of the program", ctx.step_ms_now(), ctx.step_ms_now()};
  ctx.analysis.findings.push_back(std::move(f));
}

void communication_dominant(Context& ctx) {
  auto found = category_share_finding(ctx, Category::kCommunication, "communication_dominant",
                                      thresholds::kCommunicationMedium, thresholds::kCommunicationHigh);
  if (!found) return;
  Finding& f = *found;
  f.title = "collectives take " + format_percent(f.share) + " of GPU time";
  f.suggestion =
      "Check whether the collectives move data or wait (compare ranks: a collective_wait finding means "
      "waiting); overlap communication with compute, use the engine's custom all-reduce for small "
      "messages, or lower the tensor-parallel degree.";
  const CategoryRow* row = ctx.category(Category::kCommunication);
  double now = ctx.step_ms_now();
  double after = std::max(0.0, now - ctx.per_step_ms(*row));
  f.what_if = {"the collectives hidden entirely behind compute: " + ctx.step_word() + " " + format_duration_ms(after),
               now, after};
  ctx.analysis.findings.push_back(std::move(f));
}

void host_memcpy_in_step(Context& ctx) {
  if (!ctx.has_steps()) return;
  double count = 0, time_ms = 0, bytes = 0;
  std::map<std::string, double> by_name;
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    const auto& a = ctx.profile.gpu[i];
    if (a.kind != GpuActivityKind::kMemcpy || ctx.steps.activity_step[i] < 0) continue;
    if (a.memcpy_kind != MemcpyKind::kHtoD && a.memcpy_kind != MemcpyKind::kDtoH) continue;
    count += 1;
    time_ms += static_cast<double>(a.duration()) / 1e6;
    if (a.bytes > 0) bytes += static_cast<double>(a.bytes);
    by_name[std::string(ctx.profile.name_of(a.name))] += 1;
  }
  if (count == 0) return;
  double per_step = count / ctx.step_count();
  Finding f;
  f.id = "host_memcpy_in_step";
  f.share = ctx.analysis.gpu_time_ms() > 0 ? time_ms / ctx.analysis.gpu_time_ms() : 0;
  f.step_share = ctx.step_share_of(time_ms / ctx.step_count(), time_ms);
  f.severity = per_step >= thresholds::kHostMemcpyPerStepMedium ? "medium" : "low";
  for (const auto& [name, n] : by_name) f.kernels.push_back(name);
  f.title = format_fixed(per_step, 1) + " host<->device copies per step";
  if (bytes > 0) f.title += " (" + format_fixed(bytes / ctx.step_count() / 1024, 1) + " KiB per step)";
  f.suggestion =
      "Each device-to-host copy in a step usually blocks the CPU until the GPU drains; keep step inputs "
      "on the GPU, use pinned memory with non_blocking copies, and read results back once per step "
      "at most.";
  f.numbers = {{"copies_per_step", per_step}, {"time_ms", time_ms}, {"bytes", bytes}};
  double now = ctx.step_ms_now();
  double after = std::max(0.0, now - time_ms / ctx.step_count());
  f.what_if = {
      "the host<->device copies out of the step (their GPU time; a blocking copy also stalls the host): "
      "step " +
          format_duration_ms(after),
      now, after};
  ctx.analysis.findings.push_back(std::move(f));
}

}  // namespace

std::string severity_for_share(double share, double medium, double high) {
  if (share >= high) return "high";
  if (share >= medium) return "medium";
  return "low";
}

void add_rank_findings(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                       const WorkAttribution& work, RankAnalysis& analysis) {
  Context ctx{profile, classes, steps, analysis, work, LaunchContext(profile)};
  HostCalls calls = host_calls(ctx);
  copy_cast_dominant(ctx);
  low_tensor_core_share(ctx);
  gpu_idle(ctx, calls);
  launch_bound(ctx, calls);
  pipeline_bubble(ctx);
  communication_dominant(ctx);
  host_memcpy_in_step(ctx);
  graphs_recorded_whole(ctx);
  for (auto& f : analysis.findings) f.rank = analysis.rank;
  rank_findings(analysis.findings);
}

double Finding::gain_ms() const {
  if (what_if.step_ms_after) return std::max(0.0, what_if.step_ms_now - *what_if.step_ms_after);
  return step_share * what_if.step_ms_now;
}

void rank_findings(std::vector<Finding>& findings) {
  auto severity_rank = [](const std::string& s) { return s == "high" ? 0 : s == "medium" ? 1 : 2; };
  std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
    if (a.gain_ms() != b.gain_ms()) return a.gain_ms() > b.gain_ms();
    if (a.step_share != b.step_share) return a.step_share > b.step_share;
    if (a.severity != b.severity) return severity_rank(a.severity) < severity_rank(b.severity);
    return a.id < b.id;
  });
}

}  // namespace cuprobe
