#include "analysis/findings_what_if.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/thresholds.h"
#include "common/units.h"

namespace cuprobe {
namespace {

double numel(const std::vector<std::int64_t>& d) {
  double n = 1;
  for (auto v : d) n *= static_cast<double>(std::max<std::int64_t>(v, 0));
  return n;
}

bool is_matmul(Category c) {
  return c == Category::kGemm || c == Category::kAttention || c == Category::kMoe || c == Category::kConv;
}

}  // namespace

double WhatIfInputs::step_ms_now() const { return has_steps() ? steps.summary.median_ms : analysis.window_ms; }

bool WhatIfInputs::counted(std::size_t i) const { return !has_steps() || steps.activity_step[i] >= 0; }

double WhatIfInputs::per_step(double total) const {
  return has_steps() ? total / static_cast<double>(steps.summary.steps.size()) : total;
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
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    const auto& aw = in.work.activity[i];
    Category cat = in.classes[i].category;
    // Kernels with their operator's work only: a memcpy's byte count alone does not say what the kernel could do.
    if (!aw.known || aw.op < 0 || is_matmul(cat) || cat == Category::kCommunication || !in.counted(i)) continue;
    if (aw.beyond_peak) {
      ++r.beyond_peak_calls;
      continue;
    }
    auto roof = roofline_ms(aw.bytes, aw.flops, aw.dtype, *in.analysis.peaks);
    if (!roof) continue;
    any = true;
    double t = static_cast<double>(p.gpu[i].duration()) / 1e6;
    if (t > *roof) {
      r.saved.emplace_back(i, t - *roof);
      saved += t - *roof;
    }
  }
  if (any) r.after_ms = in.step_ms_now() - in.per_step(saved);
  return r;
}

}  // namespace cuprobe
