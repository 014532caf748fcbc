// cache_grown_by_cat: a buffer grown with torch.cat every step (a KV cache: torch.cat([cache, new], dim=seq)) is
// copied whole each time, and the copy grows with it. Seen on the GPU as cat kernels that move a large buffer and
// feed attention (or a matmul) directly; the fix writes the new entries into a preallocated buffer in place.
#include <algorithm>

#include "analysis/findings_patterns.h"
#include "analysis/pattern_thresholds.h"
#include "analysis/thresholds.h"
#include "common/units.h"

namespace cuprobe {
namespace {

bool is_cat_kernel(std::string_view name) {
  return name.find("CatArrayBatchedCopy") != std::string_view::npos || name.find("cat_") == 0 ||
         name.find("::cat") != std::string_view::npos;
}

// Does a cat along the last dimension show in its recorded arguments (rotary's rotate_half: cat((-x2, x1), -1))?
bool cat_along_last_dim(const FindingsContext& ctx, std::int64_t correlation) {
  const CpuRange* launch = ctx.launches.launch_of(correlation);
  if (!launch) return false;
  for (auto it = ctx.profile.cpu.rbegin(); it != ctx.profile.cpu.rend(); ++it) {
    const CpuRange& r = *it;
    if (r.start > launch->start || r.tid != launch->tid) continue;
    if (r.end < launch->end) {
      if (launch->start - r.start > 1000000) break;  // 1 ms back: not around it
      continue;
    }
    if (r.kind != CpuRangeKind::kOperator || ctx.profile.name_of(r.name) != "aten::cat") continue;
    if (r.inputs < 0) return false;
    const auto& args = ctx.profile.op_inputs[static_cast<std::size_t>(r.inputs)].args;
    return args.size() >= 2 && args[1].concrete == "-1";
  }
  return false;
}

}  // namespace

void add_cat_growth_finding(FindingsContext& ctx) {
  const Profile& p = ctx.profile;
  std::optional<double> bw;
  if (ctx.analysis.peaks && ctx.analysis.peaks->memory_tbps)
    bw = *ctx.analysis.peaks->memory_tbps * thresholds::kCopyBandwidthShare * 1e12;
  // Kernels in launch order per device (profile.gpu is sorted by start).
  std::vector<std::size_t> kernels;
  double shortest_ms = 1e30;
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    if (p.gpu[i].kind != GpuActivityKind::kKernel || !ctx.counted(i)) continue;
    kernels.push_back(i);
    shortest_ms = std::min(shortest_ms, activity_ms(p, i));
  }
  Finding f;
  double cat_ms = 0, calls = 0, bytes = 0;
  std::vector<double> per_step(ctx.has_steps() ? ctx.steps.summary.steps.size() : 1, 0.0);
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    std::size_t i = kernels[k];
    if (!is_cat_kernel(p.name_of(p.gpu[i].name))) continue;
    double t = activity_ms(p, i);
    double moved = bw ? t * 1e-3 * *bw : 0;
    if (bw ? moved < thresholds::kCatWholeCopyBytes : t < 0.02) continue;
    // What consumes it: skip the other cats and copies of the same update (K, then V).
    std::size_t next = k + 1;
    while (next < kernels.size() && (is_cat_kernel(p.name_of(p.gpu[kernels[next]].name)) ||
                                     ctx.classes[kernels[next]].category == Category::kCopyCast))
      ++next;
    if (next >= kernels.size()) continue;
    Category consumer = ctx.classes[kernels[next]].category;
    if (consumer != Category::kAttention && consumer != Category::kGemm) continue;
    if (cat_along_last_dim(ctx, p.gpu[i].correlation)) continue;
    cat_ms += t;
    calls += 1;
    bytes += moved;
    // The fix writes the new entries in place: a small write kernel where the whole copy was.
    f.claim.activity_ms.emplace_back(i, std::max(0.0, t - shortest_ms));
    if (ctx.has_steps()) per_step[static_cast<std::size_t>(ctx.steps.activity_step[i])] += t;
  }
  if (calls <= 0) return;
  double steps = ctx.has_steps() ? ctx.step_count() : 1.0;
  double saved = 0;
  for (const auto& [i, ms] : f.claim.activity_ms) saved += ms;
  saved /= steps;
  f.id = "cache_grown_by_cat";
  f.title = format_fixed(calls / steps, 1) + " torch.cat calls per " + ctx.step_word() +
            " copy a whole buffer that attention then reads (" + format_duration_ms(cat_ms / steps);
  if (bw) f.title += ", about " + format_bytes(bytes / steps) + " at copy bandwidth";
  f.title += " of each " + format_duration_ms(ctx.step_ms_now()) + " " + ctx.step_word() + ")";
  // Growth across steps: the copy grows with the buffer.
  if (per_step.size() >= 3) {
    std::size_t n = per_step.size();
    double first = per_step.front(), last = per_step.back();
    if (first > 0) {
      double growth = (last - first) / first / static_cast<double>(n - 1);
      f.numbers.emplace_back("cat_growth_per_step", growth);
      f.title += "; the copy grows " + format_fixed(growth * 100, 3) + "% per step";
    }
  }
  f.suggestion =
      "A cache grown with torch.cat([cache, new], dim) is copied whole every step, and the copy grows with the "
      "context. Preallocate it to its maximum length once and write each step's entries in place "
      "(cache[:, :, pos] = new, index_copy_), attending over cache[:, :, :length] (a static cache).";
  f.numbers.insert(f.numbers.end(), {{"cat_calls_per_step", calls / steps}, {"cat_ms_per_step", cat_ms / steps}});
  f.kernels = {std::string(p.name_of(p.gpu[f.claim.activity_ms.front().first].name))};
  push_pattern(ctx, std::move(f), saved, "a preallocated cache written in place (the whole copies gone)");
}

}  // namespace cuprobe
