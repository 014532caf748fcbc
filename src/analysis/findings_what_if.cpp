#include "analysis/findings_what_if.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "analysis/launch_context.h"
#include "analysis/op_work.h"
#include "analysis/thresholds.h"
#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {
namespace {

bool is_matmul(Category c) {
  return c == Category::kGemm || c == Category::kAttention || c == Category::kMoe || c == Category::kConv;
}

}  // namespace

double WhatIfInputs::step_ms_now() const { return has_steps() ? steps.summary.median_ms : analysis.window_ms; }

bool WhatIfInputs::counted(std::size_t i) const { return !has_steps() || steps.activity_step[i] >= 0; }

double WhatIfInputs::per_step(double total) const {
  return has_steps() ? total / static_cast<double>(steps.summary.steps.size()) : total;
}

std::string what_gives_bytes(const WhatIfInputs& in, std::string_view kernel) {
  const std::string& source = in.profile.source;
  if (source == "cuprobe-run") {
    if (in.profile.counters.empty())
      return "the run file has no counter samples (recorded with --no-counters, or the counters were unavailable: "
             "see the recorder's notices); `cuprobe record` without --no-counters measures each kernel's DRAM bytes";
    std::string filled;
    for (const auto& row : in.analysis.counters.by_kernel) {
      if (row.key == kernel && row.sampled_ns > 0) filled = ", " + format_percent(row.ran_share()) + " for the top one";
    }
    return "record's counter samples (" +
           format_duration_ms(static_cast<double>(in.analysis.counters.median_sample_ns) / 1e6) +
           " each) do not isolate these kernels: their calls fill less than half of the samples they overlap" + filled +
           "; `cuprobe record --interval 1ms` samples finer, which helps where they run for most of a "
           "millisecond at a time";
  }
  if (source == "nsys" || source == "rocprofv3")
    return "a " + source + " trace has no operator shapes; `cuprobe record` measures each kernel's DRAM bytes";
  return "the trace has no operator shapes (torch.profiler record_shapes=True records them)";
}

std::unordered_map<std::string_view, double> measured_rates(const WhatIfInputs& in) {
  std::unordered_map<std::string_view, double> rates;
  for (const KernelRow& k : in.analysis.kernels) {
    if (k.work && k.work->source == "counters" && k.work->achieved_tbps > 0 && k.work->beyond_peak.empty())
      rates.emplace(k.name, k.work->achieved_tbps * 1e12);
  }
  return rates;
}

CopyCastWork copy_cast_work(const WhatIfInputs& in, const std::string& top_kernel) {
  CopyCastWork c;
  const Profile& p = in.profile;
  // Gathers read part of a tensor: the fraction of it they read, by the tensor's element count (a view of the
  // cast's result, [pages, page size, dim] of a [tokens, dim] pool, is gathered from as well).
  struct Gathered {
    double fraction = 0;
    std::string sized_by;
  };
  std::map<double, Gathered> gathered;
  for (const auto& op : in.work.ops) {
    if (op.kind != WorkKind::kGather || op.dims.empty() || op.sized_by.empty()) continue;
    double whole = numel(op.dims);
    if (whole <= 0) continue;
    Gathered& g = gathered[whole];
    double f = std::min(1.0, op.elements / whole);
    if (f >= g.fraction) g = {f, op.sized_by};
  }
  double bytes = 0, time_ms = 0, top_bytes = 0, top_calls = 0;
  std::vector<std::pair<std::size_t, double>> known;  // copies with known bytes: their time
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    if (in.classes[i].category != Category::kCopyCast || !in.work.activity[i].known || !in.counted(i)) continue;
    const auto& aw = in.work.activity[i];
    if (aw.beyond_peak) {
      ++c.beyond_peak_calls;
      continue;
    }
    double t = static_cast<double>(p.gpu[i].duration()) / 1e6;
    bytes += aw.bytes;
    time_ms += t;
    known.emplace_back(i, t);
    if (p.name_of(p.gpu[i].name) == top_kernel) {
      top_bytes += aw.bytes;
      top_calls += 1;
    }
    if (aw.op < 0) continue;
    const OpWork& op = in.work.ops[static_cast<std::size_t>(aw.op)];
    c.casts = c.casts || op.cast;
    auto g = gathered.find(numel(op.dims));
    if (op.cast && g != gathered.end()) {
      c.saved_gathered.emplace_back(i, t * (1.0 - g->second.fraction));
      if (g->second.fraction >= c.gathered_fraction) {
        c.gathered_fraction = g->second.fraction;
        c.gathered_sized_by = g->second.sized_by;
      }
    }
  }
  if (bytes <= 0) {  // no shapes: the DRAM bytes record's counters measured, at each kernel's measured rate
    auto rates = measured_rates(in);
    for (std::size_t i = 0; i < p.gpu.size() && !rates.empty(); ++i) {
      if (in.classes[i].category != Category::kCopyCast || !in.counted(i)) continue;
      std::string_view name = p.name_of(p.gpu[i].name);
      auto rate = rates.find(name);
      if (rate == rates.end()) continue;
      double t = static_cast<double>(p.gpu[i].duration()) / 1e6;
      double b = rate->second * t * 1e-3;
      bytes += b;
      time_ms += t;
      known.emplace_back(i, t);
      if (name == top_kernel) top_bytes += b, top_calls += 1;
    }
    c.measured = bytes > 0;
  }
  if (bytes <= 0 || time_ms <= 0) return c;
  c.known = true;
  c.bytes_per_step = in.per_step(bytes);
  c.time_ms_per_step = in.per_step(time_ms);
  c.tbps = bytes / (time_ms * 1e-3) / 1e12;
  if (top_calls > 0) {
    c.bytes_per_call = top_bytes / top_calls;
    c.calls_per_step = in.per_step(top_calls);
  }
  double now = in.step_ms_now();
  if (in.analysis.peaks && in.analysis.peaks->memory_tbps) {
    double peak = *in.analysis.peaks->memory_tbps;
    c.peak_share = c.tbps / peak;
    double at_copy_ms = c.bytes_per_step / (peak * thresholds::kCopyBandwidthShare * 1e12) * 1e3;
    if (at_copy_ms < c.time_ms_per_step) {
      c.after_copy_bandwidth_ms = now - (c.time_ms_per_step - at_copy_ms);
      // Spread over the copies by their time: each at the same fraction of copy bandwidth.
      double kept = at_copy_ms / c.time_ms_per_step;
      for (auto [i, t] : known) c.saved_at_copy.emplace_back(i, t * (1.0 - kept));
    }
  }
  if (!c.saved_gathered.empty()) {
    double saved = 0;
    for (const auto& [i, ms] : c.saved_gathered) saved += ms;
    c.after_gathered_ms = now - in.per_step(saved);
  }
  return c;
}

RooflineWork non_matmul_at_roofline(const WhatIfInputs& in) {
  RooflineWork r;
  if (!in.analysis.peaks) return r;
  const Profile& p = in.profile;
  double saved = 0;
  bool any = false;
  const auto rates = measured_rates(in);
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    const auto& aw = in.work.activity[i];
    Category cat = in.classes[i].category;
    if (is_matmul(cat) || cat == Category::kCommunication || !in.counted(i)) continue;
    double t = static_cast<double>(p.gpu[i].duration()) / 1e6;
    // Kernels with their operator's work; else the DRAM bytes record measured, at the memory roof (a memcpy's byte
    // count alone does not say what the kernel could do).
    if (!aw.known || aw.op < 0) {
      auto rate = rates.find(p.name_of(p.gpu[i].name));
      if (rate == rates.end() || !in.analysis.peaks->memory_tbps || p.gpu[i].kind != GpuActivityKind::kKernel) continue;
      double roof = rate->second * t * 1e-3 / (*in.analysis.peaks->memory_tbps * 1e12) * 1e3;
      any = r.measured = true;
      if (t > roof) {
        r.saved.emplace_back(i, t - roof);
        saved += t - roof;
      }
      continue;
    }
    if (aw.beyond_peak) {
      ++r.beyond_peak_calls;
      continue;
    }
    auto roof = roofline_ms(aw.bytes, aw.flops, aw.dtype, *in.analysis.peaks);
    if (!roof) continue;
    any = true;
    if (t > *roof) {
      r.saved.emplace_back(i, t - *roof);
      saved += t - *roof;
    }
  }
  if (any) r.after_ms = in.step_ms_now() - in.per_step(saved);
  return r;
}

std::optional<HostFloor> host_launch_floor(const WhatIfInputs& in) {
  if (!in.has_steps()) return std::nullopt;
  const Profile& p = in.profile;
  std::unordered_map<std::int64_t, int> step_of;  // launch correlation -> step
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    if (in.steps.activity_step[i] >= 0 && p.gpu[i].correlation >= 0)
      step_of.emplace(p.gpu[i].correlation, in.steps.activity_step[i]);
  }
  struct Span {
    TimeNs first = INT64_MAX, last = INT64_MIN;
    double launches = 0;
  };
  std::vector<Span> spans(in.steps.summary.steps.size());
  std::vector<double> launch_ns;
  std::vector<const CpuRange*> calls;  // runtime calls, by start
  for (const CpuRange& r : p.cpu) {
    if (r.kind != CpuRangeKind::kRuntime) continue;
    calls.push_back(&r);
    if (r.correlation < 0 || !is_launch_call(p.name_of(r.name))) continue;
    auto it = step_of.find(r.correlation);
    if (it == step_of.end()) continue;
    Span& s = spans[static_cast<std::size_t>(it->second)];
    s.first = std::min(s.first, r.start);
    s.last = std::max(s.last, r.end);
    s.launches += 1;
    launch_ns.push_back(static_cast<double>(r.end - r.start));
  }
  if (launch_ns.empty()) return std::nullopt;
  const double typical = percentile(launch_ns, 10);  // a launch that did not wait
  const double fastest = *std::min_element(launch_ns.begin(), launch_ns.end());
  // torch.profiler's own work on the host (each operator recorded, with shapes, with stacks) stretches the span
  // between launches well past the program's (2.3 ms of launches per step where the step runs in 0.22 ms without
  // it, tests/data/h200_pool_gather_expanded_index): there the floor is the launches alone, each at the fastest.
  const bool span_is_the_programs = p.source == "cuprobe-run";
  std::vector<double> floors, launches, profiled;
  for (const Span& s : spans) {
    if (s.launches == 0) continue;
    launches.push_back(s.launches);
    // The calls' time beyond a typical launch, inside the span (nested calls counted once).
    double waiting = 0;
    TimeNs covered = INT64_MIN;
    auto from =
        std::lower_bound(calls.begin(), calls.end(), s.first, [](const CpuRange* r, TimeNs t) { return r->start < t; });
    for (auto it = from; it != calls.end() && (*it)->start < s.last; ++it) {
      const CpuRange& r = **it;
      if (r.start < covered) continue;
      covered = r.end;
      double inside = static_cast<double>(std::min(r.end, s.last) - r.start);
      waiting += std::max(0.0, inside - typical);
    }
    double host = std::max(static_cast<double>(s.last - s.first) - waiting, s.launches * typical);
    if (span_is_the_programs) {
      floors.push_back(host / 1e6);
    } else {
      floors.push_back(s.launches * fastest / 1e6);
      profiled.push_back(host / 1e6);
    }
  }
  HostFloor floor{percentile(floors, 50), percentile(launches, 50), (span_is_the_programs ? typical : fastest) / 1e3,
                  span_is_the_programs};
  if (!profiled.empty()) floor.profiled_span_ms = percentile(profiled, 50);
  return floor;
}

double gpu_path_saving_ms(const WhatIfInputs& in, const std::vector<std::pair<std::size_t, double>>& saved) {
  if (!in.has_steps() || saved.empty()) return 0;
  const Profile& p = in.profile;
  std::unordered_map<std::size_t, double> cut;  // ns less, by profile.gpu index
  for (const auto& [i, ms] : saved) cut[i] += ms * 1e6;
  std::vector<double> per_step(in.steps.summary.steps.size(), 0.0);
  struct Frontier {
    double orig = 0, now = 0;
    bool any = false;
  };
  std::vector<Frontier> at(per_step.size());
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {  // by start
    int step = in.steps.activity_step[i];
    if (step < 0) continue;
    Frontier& f = at[static_cast<std::size_t>(step)];
    const GpuActivity& a = p.gpu[i];
    double start = static_cast<double>(a.start), dur = static_cast<double>(a.duration());
    auto c = cut.find(i);
    double less = c == cut.end() ? 0.0 : std::min(dur, c->second);
    double moved = start;
    // Queued behind the work before it (it started as that ended): it starts as much earlier as that work ends.
    if (f.any && start - f.orig <= thresholds::kQueuedGapUs * 1e3) moved = start - (f.orig - f.now);
    f.orig = f.any ? std::max(f.orig, start + dur) : start + dur;
    f.now = f.any ? std::max(f.now, moved + dur - less) : moved + dur - less;
    f.any = true;
  }
  for (std::size_t k = 0; k < at.size(); ++k) per_step[k] = at[k].any ? (at[k].orig - at[k].now) / 1e6 : 0.0;
  return percentile(per_step, 50);
}

void apply_host_floor(const WhatIfInputs& in, std::vector<Finding>& findings) {
  std::optional<HostFloor> floor;
  bool looked = false;
  const double now = in.step_ms_now();
  for (Finding& f : findings) {
    WhatIf& w = f.what_if;
    if (f.claim.changes_launches) continue;
    if (!looked) floor = host_launch_floor(in), looked = true;
    if (!floor && in.has_steps() && !f.claim.activity_ms.empty()) {
      // No launch calls (a run file without --api): where the GPU waited for the host between the kernels, the
      // host's launch times are the floor; a kernel made shorter lets only the work queued behind it start earlier.
      double claimed = 0;
      for (const auto& [i, ms] : f.claim.activity_ms) claimed += ms;
      claimed = w.step_ms_after_alone ? now - *w.step_ms_after_alone : in.per_step(claimed);
      double path = gpu_path_saving_ms(in, f.claim.activity_ms);
      if (claimed > 0 && path < claimed) {
        f.claim.max_gain_ms = path;
        std::string step = "step " + format_duration_ms(now - path);
        if (w.step_ms_after_alone) w.step_ms_after_alone = now - path;
        w.description +=
            "; but the GPU waits for the host's launches between most of these kernels, so the step "
            "shrinks only as far as the work queued behind them: " +
            step;
        f.numbers.emplace_back("gpu_path_saving_ms", path);
      }
      continue;
    }
    if (!w.step_ms_after_alone) continue;
    if (!floor || *w.step_ms_after_alone >= now) continue;
    if (*w.step_ms_after_alone >= floor->ms) {
      // Above the launches alone, below the host's time under the profiler: the fix may stop at the host.
      if (floor->profiled_span_ms > *w.step_ms_after_alone)
        w.description += "; under the profiler the host took " + format_duration_ms(floor->profiled_span_ms) +
                         " to launch each step (its own work included): the fixed step may be host-bound, between " +
                         format_duration_ms(*w.step_ms_after_alone) + " and that";
      continue;
    }
    double at = std::min(now, floor->ms);
    w.step_ms_after_alone = at;
    f.claim.max_gain_ms = std::max(0.0, now - at);
    std::string how = floor->from_span
                          ? " launch calls of " + format_fixed(floor->launch_us, 1) + " us and the work between them"
                          : " launch calls, each at least " + format_fixed(floor->launch_us, 1) + " us";
    w.description += "; but the host needs " + format_duration_ms(floor->ms) + " to launch each step (" +
                     format_fixed(floor->launches_per_step, 0) + how + "), so the fixed program is host-bound: step " +
                     format_duration_ms(at);
    f.numbers.emplace_back("host_floor_ms", floor->ms);
  }
}

}  // namespace cuprobe
