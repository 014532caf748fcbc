// weight_cast_per_forward: a GEMM's weight cast to the compute dtype on every call (fp32 weights under
// torch.autocast, a quantized weight dequantized before each matmul). Seen as copy/cast kernels launched inside a
// GEMM operator (autocast casts there), or a cast operator whose result goes straight into a 2-d GEMM; in a run
// file, a large cast kernel followed by a GEMM kernel (past up to two other casts), not right after a gather. The fix
// keeps the weights in the compute dtype.
#include <algorithm>
#include <map>
#include <set>

#include "analysis/findings_patterns.h"
#include "analysis/pattern_thresholds.h"
#include "common/units.h"

namespace cuprobe {
namespace {

bool has_batched_gemm(const OperatorCalls& calls, std::size_t at) {
  // The operators nested in calls[at] follow it with a larger depth.
  for (std::size_t k = at + 1; k < calls.size() && calls[k].depth > calls[at].depth; ++k) {
    std::string_view b = op_base_name(calls[k].name);
    if (b == "bmm" || b == "baddbmm") return true;
  }
  return false;
}

bool view_op(std::string_view op) {
  std::string_view b = op_base_name(op);
  return b == "t" || b == "transpose" || b == "view" || b == "reshape" || b == "permute" || b == "expand" ||
         b == "contiguous" || b == "detach" || b == "alias" || b == "mul" || b == "div";
}

}  // namespace

void add_weight_cast_finding(FindingsContext& ctx, const OperatorCalls& calls) {
  const Profile& p = ctx.profile;
  std::set<std::size_t> casts;  // copy/cast kernels that cast a GEMM operand
  std::map<std::string, int> origins;
  auto take = [&](std::size_t i, std::string_view via) {
    if (ctx.classes[i].category != Category::kCopyCast || !ctx.counted(i)) return;
    if (casts.insert(i).second) ++origins[std::string(via)];
  };
  if (!calls.empty()) {
    for (std::size_t k = 0; k < calls.size(); ++k) {
      const OpCall& c = calls[k];
      if (!gemm_op(c.name) || has_batched_gemm(calls, k)) continue;
      // Autocast: the cast runs inside the GEMM operator.
      for (std::size_t i : c.activities) take(i, std::string(c.name) + " (autocast)");
    }
    // A cast operator whose result goes into a 2-d GEMM next on its thread (views and a scale between).
    for (std::size_t k = 0; k < calls.size(); ++k) {
      const OpCall& c = calls[k];
      if (c.depth != 0 || !cast_op(c.name)) continue;
      const auto& dims = op_arg_dims(c, 0);
      if (c.inputs && dims.size() != 2) continue;  // with shapes: a matrix, as weights are
      std::size_t next = k + 1;
      while (next < calls.size() && (calls[next].depth > 0 || view_op(calls[next].name)) &&
             (calls[next].tid == c.tid)) {
        if (calls[next].depth == 0 && !view_op(calls[next].name)) break;
        ++next;
      }
      if (next >= calls.size() || calls[next].tid != c.tid || !gemm_op(calls[next].name) ||
          has_batched_gemm(calls, next))
        continue;
      for (std::size_t i : c.activities) take(i, std::string(c.name) + " before " + std::string(calls[next].name));
    }
  } else {
    // A run file: a large cast kernel directly before a GEMM kernel.
    std::optional<double> bw = copy_bandwidth(ctx);
    std::vector<std::size_t> kernels = counted_kernels(ctx);
    for (std::size_t k = 0; k + 1 < kernels.size(); ++k) {
      std::size_t i = kernels[k];
      if (ctx.classes[i].category != Category::kCopyCast) continue;
      // The GEMM next, past up to two casts of its other operand (autocast casts the input after the weight).
      std::size_t next = k + 1;
      auto plain_cast = [&](std::size_t j) {
        std::string_view n = p.name_of(p.gpu[j].name);
        return ctx.classes[j].category == Category::kCopyCast && n.find("gather") == std::string_view::npos &&
               n.find("index") == std::string_view::npos && n.find("Index") == std::string_view::npos;
      };
      if (!plain_cast(i)) continue;
      // Right after a gather: the gathered entries cast (activations, as a paged KV cache's), not a weight.
      if (k > 0 && !plain_cast(kernels[k - 1]) && ctx.classes[kernels[k - 1]].category == Category::kCopyCast) continue;
      while (next < kernels.size() && next <= k + 2 && plain_cast(kernels[next])) ++next;
      if (next >= kernels.size() || ctx.classes[kernels[next]].category != Category::kGemm) continue;
      double t = activity_ms(p, i);
      if (bw ? t * 1e-3 * *bw < thresholds::kCatWholeCopyBytes : t < 0.02) continue;
      take(i, "a cast kernel before a GEMM kernel");
    }
  }
  if (casts.empty()) return;
  double steps = ctx.has_steps() ? ctx.step_count() : 1.0;
  Finding f;
  double ms = 0, bytes = 0;
  bool all_bytes = true;
  std::map<std::string, double> by_name;
  for (std::size_t i : casts) {
    double t = activity_ms(p, i);
    ms += t;
    f.claim.activity_ms.emplace_back(i, t);
    by_name[std::string(p.name_of(p.gpu[i].name))] += t;
    if (ctx.work.activity[i].known)
      bytes += ctx.work.activity[i].bytes;
    else
      all_bytes = false;
  }
  f.id = "weight_cast_per_forward";
  f.share = ctx.judged.total_ms > 0 ? ms / ctx.judged.total_ms : 0;
  std::string origin =
      std::max_element(origins.begin(), origins.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
  f.title = format_fixed(static_cast<double>(casts.size()) / steps, 0) + " casts of GEMM operands per " +
            ctx.step_word() + " (" + origin + "): " + format_duration_ms(ms / steps) + " of each " +
            format_duration_ms(ctx.step_ms_now()) + " " + ctx.step_word();
  if (all_bytes && bytes > 0) f.title += ", " + format_bytes(bytes / steps) + " cast per " + ctx.step_word();
  for (const auto& [name, t] : by_name) f.kernels.push_back(name);
  f.suggestion =
      "The weights are converted to the compute dtype on every forward (fp32 parameters under torch.autocast, or a "
      "quantized weight dequantized before each matmul). Convert the model once at load (model.to(torch.bfloat16)) "
      "or keep the quantized weight and use a kernel that reads it (torch._scaled_mm for fp8).";
  f.numbers = {{"casts_per_step", static_cast<double>(casts.size()) / steps}, {"cast_ms_per_step", ms / steps}};
  if (all_bytes && bytes > 0) f.numbers.emplace_back("cast_bytes_per_step", bytes / steps);
  push_pattern(ctx, std::move(f), ms / steps, "the weights kept in the compute dtype (the casts gone)");
}

}  // namespace cuprobe
