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
  // Gathers read part of a tensor: the fraction of it they read, by the tensor's sizes.
  std::map<std::vector<std::int64_t>, double> gathered;
  for (const auto& op : in.work.ops) {
    if (op.kind != WorkKind::kGather || op.dims.empty()) continue;
    double whole = numel(op.dims);
    if (whole <= 0) continue;
    double& f = gathered[op.dims];
    f = std::max(f, std::min(1.0, op.elements / whole));
  }
  double bytes = 0, time_ms = 0, saved_by_gather_ms = 0, top_bytes = 0, top_calls = 0;
  bool any_gathered = false;
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    if (in.classes[i].category != Category::kCopyCast || !in.work.activity[i].known || !in.counted(i)) continue;
    const auto& aw = in.work.activity[i];
    double t = static_cast<double>(p.gpu[i].duration()) / 1e6;
    bytes += aw.bytes;
    time_ms += t;
    if (p.name_of(p.gpu[i].name) == top_kernel) {
      top_bytes += aw.bytes;
      top_calls += 1;
    }
    if (aw.op < 0) continue;
    const OpWork& op = in.work.ops[static_cast<std::size_t>(aw.op)];
    c.casts = c.casts || op.cast;
    auto g = gathered.find(op.dims);
    if (op.cast && g != gathered.end()) {
      any_gathered = true;
      saved_by_gather_ms += t * (1.0 - g->second);
      c.gathered_fraction = std::max(c.gathered_fraction, g->second);
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
    if (at_copy_ms < c.time_ms_per_step) c.after_copy_bandwidth_ms = now - (c.time_ms_per_step - at_copy_ms);
  }
  if (any_gathered) c.after_gathered_ms = now - in.per_step(saved_by_gather_ms);
  return c;
}

std::optional<double> non_matmul_at_roofline_ms(const WhatIfInputs& in) {
  if (!in.analysis.peaks) return std::nullopt;
  const Profile& p = in.profile;
  double saved = 0;
  bool any = false;
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    const auto& aw = in.work.activity[i];
    Category cat = in.classes[i].category;
    // Kernels with their operator's work only: a memcpy's byte count alone does not say what the kernel could do.
    if (!aw.known || aw.op < 0 || is_matmul(cat) || cat == Category::kCommunication || !in.counted(i)) continue;
    auto roof = roofline_ms(aw.bytes, aw.flops, aw.dtype, *in.analysis.peaks);
    if (!roof) continue;
    any = true;
    saved += std::max(0.0, static_cast<double>(p.gpu[i].duration()) / 1e6 - *roof);
  }
  if (!any) return std::nullopt;
  return in.step_ms_now() - in.per_step(saved);
}

}  // namespace cuprobe
