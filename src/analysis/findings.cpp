#include "analysis/findings.h"

#include <algorithm>
#include <map>
#include <optional>

#include "analysis/copy_operations.h"
#include "analysis/finding_gains.h"
#include "analysis/findings_context.h"
#include "analysis/findings_patterns.h"
#include "analysis/findings_what_if.h"
#include "analysis/pattern_thresholds.h"
#include "analysis/step_gaps.h"
#include "analysis/thresholds.h"
#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {

FindingsContext::FindingsContext(const Profile& p, const std::vector<KernelClass>& c, const StepAssignment& s,
                                 RankAnalysis& a, const WorkAttribution& w)
    : profile(p), classes(c), steps(s), analysis(a), work(w), launches(p) {
  std::size_t n = s.summary.steps.size();
  std::vector<std::array<double, kCategoryCount>> by_step(n);
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    if (!counted(i)) continue;
    double t = static_cast<double>(p.gpu[i].duration()) / 1e6;
    auto cat = static_cast<std::size_t>(c[i].category);
    judged.category_ms[cat] += t;
    judged.total_ms += t;
    if (n == 0) continue;
    auto step = static_cast<std::size_t>(s.activity_step[i]);
    by_step[step][cat] += t;
  }
  std::vector<std::size_t> worked;  // steps with GPU work
  for (std::size_t k = 0; k < n; ++k) {
    if (s.summary.steps[k].activities > 0) worked.push_back(k);
  }
  if (worked.empty()) return;
  std::vector<double> values;
  for (std::size_t cat = 0; cat < kCategoryCount; ++cat) {
    values.clear();
    for (std::size_t k : worked) values.push_back(by_step[k][cat]);
    judged.category_median_ms[cat] = percentile(values, 50);
    judged.median_total_ms += judged.category_median_ms[cat];
  }
}

bool FindingsContext::graph_replays() const {
  return steps.summary.source == "graph replay" || steps.summary.source == "graph launch";
}

std::string FindingsContext::window_note() const {
  return has_steps() ? std::string() : " (whole trace window: no steps found)";
}

double FindingsContext::category_share(Category c) const {
  if (!has_steps()) {
    const CategoryRow* row = category(c);
    return row ? row->share : 0.0;
  }
  return judged.median_total_ms > 0 ? judged.category_median_ms[static_cast<std::size_t>(c)] / judged.median_total_ms
                                    : 0.0;
}

// Computed once by the breakdown (RankAnalysis::tensor_core_share), so that the finding and the header agree.
double FindingsContext::tensor_core_share() const { return analysis.tensor_core_share; }

double FindingsContext::category_per_step_ms(Category c) const {
  double ms = judged.category_ms[static_cast<std::size_t>(c)];
  return has_steps() ? ms / step_count() : ms;
}

double FindingsContext::step_share_of(double per_step_ms) const {
  double now = step_ms_now();
  return now > 0 ? std::clamp(per_step_ms / now, 0.0, 1.0) : 0.0;
}

const CategoryRow* FindingsContext::category(Category c) const {
  for (const auto& row : analysis.categories) {
    if (row.category == c) return &row;
  }
  return nullptr;
}

std::vector<std::string> FindingsContext::top_kernels(Category c, std::size_t n) const {
  std::vector<std::string> names;
  for (const auto& k : analysis.kernels) {
    if (k.category == c && names.size() < n) names.push_back(k.name);
  }
  return names;
}

std::vector<std::pair<std::size_t, double>> FindingsContext::category_activities(Category c) const {
  std::vector<std::pair<std::size_t, double>> out;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (classes[i].category == c && counted(i))
      out.emplace_back(i, static_cast<double>(profile.gpu[i].duration()) / 1e6);
  }
  return out;
}

namespace {

using Context = FindingsContext;

// A finding about one category's share of the GPU time judged on, with its numbers and top
// kernels filled in; nullopt below the threshold.
std::optional<Finding> category_share_finding(const Context& ctx, Category category, const char* id, double medium) {
  double share = ctx.category_share(category);
  const CategoryRow* row = ctx.category(category);
  if (!row || share < medium) return std::nullopt;
  Finding f;
  f.id = id;
  f.share = share;
  double per_step = ctx.category_per_step_ms(category);
  f.step_share = ctx.step_share_of(per_step);
  f.kernels = ctx.top_kernels(category, 3);
  f.numbers = {{"time_ms", row->time_ms}, {"calls", static_cast<double>(row->calls)}, {"per_step_ms", per_step}};
  return f;
}

// Scales a finding's activity claims so that they add up to `per_step_ms` per step: the what-if's figure, where it
// is a typical step's rather than the mean over the steps.
void scale_claim(const Context& ctx, Finding& f, double per_step_ms) {
  double total = 0;
  for (const auto& [i, ms] : f.claim.activity_ms) total += ms;
  double wanted = per_step_ms * (ctx.has_steps() ? ctx.step_count() : 1.0);
  if (total <= wanted || total <= 0) return;
  for (auto& [i, ms] : f.claim.activity_ms) ms *= wanted / total;
}

std::string left_out(std::int64_t calls) {
  if (calls == 0) return "";
  return " (" + std::to_string(calls) +
         " kernel calls left out: their counted work is beyond the device's peak, see the warnings)";
}

// Bytes and bandwidth in the title, and the step with the cast fixed two ways: only the
// gathered entries cast (where the trace shows a gather reading part of the cast tensor),
// or the cast at copy bandwidth; the larger gain is the what-if and the finding's claim.
void copy_cast_what_if(const Context& ctx, Finding& f) {
  WhatIf& w = f.what_if;
  w.step_ms_now = ctx.step_ms_now();
  f.claim.activity_ms = ctx.category_activities(Category::kCopyCast);  // what it explains, without a projection
  CopyCastWork c = copy_cast_work(ctx.what_if_inputs(), f.kernels.empty() ? std::string() : f.kernels.front());
  if (!c.known) {
    w.description =
        !ctx.work.shapes
            ? "bytes unknown: " + what_gives_bytes(ctx.what_if_inputs(), f.kernels.empty() ? "" : f.kernels.front()) +
                  ", so no projection"
        : ctx.graph_replays() ? "bytes unknown: the copies run inside CUDA graph replays, whose kernels "
                                "have no launching operator and so no shapes; no projection"
                              : "bytes unknown: no copy's operator shapes are in the trace, so no projection";
    w.description += left_out(c.beyond_peak_calls);
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
  if (c.measured) f.title += " (the DRAM bytes record measured)";
  if (c.peak_share) f.title += ", " + format_percent(*c.peak_share) + " of the memory bandwidth peak";
  f.numbers.insert(
      f.numbers.end(),
      {{"bytes_per_step", c.bytes_per_step}, {"bytes_per_call", c.bytes_per_call}, {"achieved_tbps", c.tbps}});
  if (c.peak_share) f.numbers.emplace_back("peak_share", *c.peak_share);
  std::string gathered, at_copy;
  if (c.after_gathered_ms) {
    gathered = "only the gathered entries cast (" + format_percent(c.gathered_fraction) +
               " of the cast elements, the gather sized by " + c.gathered_sized_by + "): " + ctx.step_word() + " " +
               format_duration_ms(*c.after_gathered_ms);
    f.numbers.emplace_back("step_ms_after_gathered_only", *c.after_gathered_ms);
    f.numbers.emplace_back("gathered_fraction", c.gathered_fraction);
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
    w.step_ms_after_alone = c.after_gathered_ms;
    w.description = gathered + (at_copy.empty() ? "" : "; with " + at_copy);
    f.claim.activity_ms = std::move(c.saved_gathered);
  } else if (c.after_copy_bandwidth_ms) {
    w.step_ms_after_alone = c.after_copy_bandwidth_ms;
    w.description = at_copy + (gathered.empty() ? "" : "; with " + gathered);
    f.claim.activity_ms = std::move(c.saved_at_copy);
  } else {
    w.description = ctx.analysis.peaks ? "the copies already run near copy bandwidth; only moving fewer bytes helps"
                                       : "no projection: the GPU's memory bandwidth is unknown (give --peak bw=TBPS)";
  }
  w.description += left_out(c.beyond_peak_calls);
}

void copy_cast_dominant(Context& ctx) {
  auto found = category_share_finding(ctx, Category::kCopyCast, "copy_cast_dominant", thresholds::kCopyCastMedium);
  if (!found) return;
  Finding& f = *found;
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
  f.title = "copies/casts take " + format_percent(f.share) + " of GPU time" + ctx.window_note();
  if (ctx.has_steps()) {
    f.title += " (" + format_duration_ms(ctx.category_per_step_ms(Category::kCopyCast)) + " of each " +
               format_duration_ms(ctx.steps.summary.median_ms) + " step)";
  }
  if (!origin.empty()) f.title += ", launched from " + origin;
  auto ops = copy_cast_operations(ctx.profile, ctx.classes, ctx.steps);
  bool said = ops.size() == 1 && origin.find(ops.front().operation) != std::string::npos;  // "launched from" did
  if (!ops.empty() && !said) f.title += "; by operation: " + copy_operations_text(ops, 3);
  copy_cast_what_if(ctx, f);
  f.suggestion =
      "Find what is copied or cast every step and shrink it: cast only the entries the step uses "
      "(gather the active KV entries before casting instead of casting the whole pool), keep tensors in the "
      "dtype/layout their consumer needs, or fuse the cast into the consuming kernel.";
  ctx.analysis.findings.push_back(std::move(f));
}

bool is_matmul(Category c) {
  return c == Category::kGemm || c == Category::kAttention || c == Category::kMoe || c == Category::kConv;
}

void low_tensor_core_share(Context& ctx) {
  const auto& a = ctx.analysis;
  double tensor_share = ctx.tensor_core_share();
  if (ctx.judged.total_ms <= 0 || tensor_share >= thresholds::kTensorCoreLow) return;
  if (ctx.category_share(Category::kCudaGraph) >= thresholds::kOpaqueGraphNoTensorFinding)
    return;  // unknowable: see graphs_recorded_whole
  // Matmul-class kernels on CUDA cores, by name (largest first), their time judged on.
  std::map<std::string_view, double> by_name;
  std::vector<std::pair<std::size_t, double>> cuda_core_activities;
  double cuda_core_matmul_ms = 0;
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    if (!ctx.counted(i) || !is_matmul(ctx.classes[i].category) || ctx.classes[i].tensor_core != false) continue;
    double t = static_cast<double>(ctx.profile.gpu[i].duration()) / 1e6;
    cuda_core_matmul_ms += t;
    cuda_core_activities.emplace_back(i, t);
  }
  std::vector<std::string> cuda_core_matmuls;
  for (const auto& k : a.kernels) {
    bool matmul = is_matmul(k.category);
    if (matmul && k.tensor_core == false && cuda_core_matmuls.size() < 3) cuda_core_matmuls.push_back(k.name);
  }
  double cuda_core_share = ctx.judged.total_ms > 0 ? cuda_core_matmul_ms / ctx.judged.total_ms : 0.0;
  Finding f;
  f.id = "low_tensor_core_share";
  f.claim.generic = true;
  f.share = cuda_core_share;
  f.step_share = ctx.step_share_of(ctx.has_steps() ? cuda_core_matmul_ms / ctx.step_count() : cuda_core_matmul_ms);
  f.title = "only " + format_percent(tensor_share) + " of GPU time runs on tensor cores" + ctx.window_note();
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
  f.numbers = {{"tensor_core_share", tensor_share}, {"cuda_core_matmul_ms", cuda_core_matmul_ms}};
  f.what_if.step_ms_now = ctx.step_ms_now();
  RooflineWork roof = non_matmul_at_roofline(ctx.what_if_inputs());
  f.what_if.step_ms_after_alone = roof.after_ms;
  if (roof.after_ms) {
    f.what_if.description = "the non-matmul kernels whose work is known at their roofline: " + ctx.step_word() + " " +
                            format_duration_ms(*roof.after_ms);
    if (roof.measured) f.what_if.description += " (where no shapes say it, the DRAM bytes record measured)";
    f.claim.activity_ms = std::move(roof.saved);
  } else {
    f.what_if.description =
        !ctx.work.shapes      ? "no projection: " + what_gives_bytes(ctx.what_if_inputs())
        : !ctx.analysis.peaks ? "no projection: it needs the GPU's peaks (give --peak)"
        : ctx.graph_replays()
            ? "no projection: the kernels run inside CUDA graph replays, which have no launching operator and so "
              "no shapes"
            : "no projection: no non-matmul kernel's launching operator has shapes the work model knows";
    f.claim.activity_ms = std::move(cuda_core_activities);
  }
  f.what_if.description += left_out(roof.beyond_peak_calls);
  ctx.analysis.findings.push_back(std::move(f));
}

void graphs_recorded_whole(Context& ctx) {
  auto found =
      category_share_finding(ctx, Category::kCudaGraph, "graphs_recorded_whole", thresholds::kOpaqueGraphShare);
  if (!found) return;
  Finding& f = *found;
  const CategoryRow* row = ctx.category(Category::kCudaGraph);
  f.step_share = 0;  // a property of the recording, not of the program: no gain, ranked last
  f.title = "whole CUDA graph launches take " + format_percent(f.share) + " of GPU time" + ctx.window_note() + " (" +
            std::to_string(row->calls) + " launches, " +
            format_duration_ms(row->time_ms / static_cast<double>(row->calls)) +
            " each): the kernels inside are not seen";
  f.suggestion =
      "The run was recorded one record per graph launch (`--graphs whole` or `events`: cheap). For the per-kernel "
      "breakdown, record a short window with every kernel: `cuprobe record --graphs node --delay 60s "
      "--duration 5s -- ...`.";
  f.what_if = {"none: a property of the recording, not of the program", ctx.step_ms_now(), std::nullopt,
               ctx.step_ms_now()};
  ctx.analysis.findings.push_back(std::move(f));
}

void communication_dominant(Context& ctx) {
  auto found =
      category_share_finding(ctx, Category::kCommunication, "communication_dominant", thresholds::kCommunicationMedium);
  if (!found) return;
  Finding& f = *found;
  f.title = "collectives take " + format_percent(f.share) + " of GPU time" + ctx.window_note();
  f.suggestion =
      "Check whether the collectives move data or wait (compare ranks: a collective_wait finding means "
      "waiting); overlap communication with compute, use the engine's custom all-reduce for small "
      "messages, or lower the tensor-parallel degree.";
  // The typical step's collectives (a first call waiting half a second for a peer is collective_wait's).
  double now = ctx.step_ms_now();
  double per_step = ctx.has_steps() ? ctx.judged.category_median_ms[static_cast<std::size_t>(Category::kCommunication)]
                                    : ctx.category_per_step_ms(Category::kCommunication);
  double after = std::max(0.0, now - per_step);
  f.what_if = {"the collectives hidden entirely behind compute: " + ctx.step_word() + " " + format_duration_ms(after),
               now, std::nullopt, after};
  f.claim.activity_ms = ctx.category_activities(Category::kCommunication);
  scale_claim(ctx, f, now - after);
  ctx.analysis.findings.push_back(std::move(f));
}

// A host-to-device copy of the program's data at the link's rate: not from pageable memory (pageable_host_copy's),
// at least a MiB, faster than a pageable copy goes. Pinned memory with a non_blocking copy is already the fix this
// finding suggests; such a copy shrinks only with fewer bytes, so it is not counted here.
bool bandwidth_bound_pinned_copy(const Profile& p, const GpuActivity& a) {
  if (a.memcpy_kind != MemcpyKind::kHtoD || a.bytes < (1 << 20) || pageable_host_copy(p, a)) return false;
  double s = static_cast<double>(a.duration()) / 1e9;
  return s > 0 && static_cast<double>(a.bytes) / s / 1e9 >= thresholds::kPageableCopyGBps;
}

void host_memcpy_in_step(Context& ctx) {
  if (!ctx.has_steps()) return;
  double count = 0, time_ms = 0, bytes = 0;
  std::map<std::string, double> by_name;
  Finding f;
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    const auto& a = ctx.profile.gpu[i];
    if (a.kind != GpuActivityKind::kMemcpy || ctx.steps.activity_step[i] < 0) continue;
    if (a.memcpy_kind != MemcpyKind::kHtoD && a.memcpy_kind != MemcpyKind::kDtoH) continue;
    if (bandwidth_bound_pinned_copy(ctx.profile, a)) continue;
    count += 1;
    double t = static_cast<double>(a.duration()) / 1e6;
    time_ms += t;
    f.claim.activity_ms.emplace_back(i, t);
    if (a.bytes > 0) bytes += static_cast<double>(a.bytes);
    by_name[std::string(ctx.profile.name_of(a.name))] += 1;
  }
  if (count == 0) return;
  double per_step = count / ctx.step_count();
  f.id = "host_memcpy_in_step";
  f.share = ctx.judged.total_ms > 0 ? time_ms / ctx.judged.total_ms : 0;
  f.step_share = ctx.step_share_of(time_ms / ctx.step_count());
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
      now, std::nullopt, after};
  ctx.analysis.findings.push_back(std::move(f));
}

}  // namespace

void add_rank_findings(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                       const WorkAttribution& work, RankAnalysis& analysis) {
  Context ctx(profile, classes, steps, analysis, work);
  copy_cast_dominant(ctx);
  low_tensor_core_share(ctx);
  add_host_findings(ctx);
  communication_dominant(ctx);
  host_memcpy_in_step(ctx);
  graphs_recorded_whole(ctx);
  add_pattern_findings(ctx);
  apply_host_floor(ctx.what_if_inputs(), analysis.findings);  // last: every projection stops at the host's floor
  for (auto& f : analysis.findings) f.rank = analysis.rank;
}

}  // namespace cuprobe
