// logits_all_positions: the output projection (lm_head) computed for every position of a prefill, often upcast to
// fp32 as well, when only the last position of each sequence is used (a select of one position, then argmax or
// sampling). Seen as a GEMM operator followed (past casts) by a select/slice of one position and a reduction or
// sampling operator. The fix slices the hidden states first (logits_to_keep=1): the GEMM and the casts shrink to
// the kept rows, a fraction 1/positions (from the select's dimension where shapes are recorded; without them,
// nearly all of their time).
#include <algorithm>

#include "analysis/findings_patterns.h"
#include "common/units.h"

namespace cuprobe {
namespace {

bool picks(std::string_view op) {
  std::string_view b = op_base_name(op);
  return b == "select" || b == "slice";
}

bool uses_picked(std::string_view op) {
  std::string_view b = op_base_name(op);
  return b == "argmax" || b == "max" || b == "topk" || b == "softmax" || b == "_softmax" || b == "multinomial" ||
         b == "sort" || b == "log_softmax" || b == "div" || b == "argsort";
}

}  // namespace

void add_unused_logits_finding(FindingsContext& ctx, const std::vector<OpCall>& calls) {
  const Profile& p = ctx.profile;
  std::vector<std::size_t> top;
  for (std::size_t k = 0; k < calls.size(); ++k) {
    if (calls[k].depth == 0) top.push_back(k);
  }
  Finding f;
  double ms = 0, saved = 0, heads = 0, positions = 0;
  for (std::size_t t = 0; t + 2 < top.size(); ++t) {
    const OpCall& g = calls[top[t]];
    if (!gemm_op(g.name) || op_base_name(g.name) == "bmm") continue;
    std::vector<std::size_t> region = {t};
    std::size_t n = t + 1;
    while (n < top.size() && cast_op(calls[top[n]].name)) region.push_back(n++);
    if (n + 1 >= top.size() || !picks(calls[top[n]].name)) continue;
    std::size_t pick = n;
    if (!uses_picked(calls[top[n + 1]].name) && !(n + 2 < top.size() && uses_picked(calls[top[n + 2]].name))) continue;
    // The fraction kept: one index of the selected dimension.
    double kept = 0;
    const OpCall& s = calls[top[pick]];
    const auto& dims = op_arg_dims(s, 0);
    if (op_base_name(s.name) == "select" && s.inputs && s.inputs->args.size() >= 2 && !dims.empty()) {
      int d = std::atoi(s.inputs->args[1].concrete.c_str());
      if (d < 0) d += static_cast<int>(dims.size());
      if (d >= 0 && static_cast<std::size_t>(d) < dims.size() && dims[static_cast<std::size_t>(d)] > 0) {
        kept = 1.0 / static_cast<double>(dims[static_cast<std::size_t>(d)]);
        positions = static_cast<double>(dims[static_cast<std::size_t>(d)]);
      }
    }
    double t_ms = 0, cast_ms = 0;
    std::vector<std::pair<std::size_t, double>> claim;
    for (std::size_t r : region) {
      for (std::size_t i : calls[top[r]].activities) {
        if (!ctx.counted(i)) continue;
        double a = activity_ms(p, i);
        t_ms += a;
        if (r != t) cast_ms += a;
        claim.emplace_back(i, a * (1 - kept));
      }
    }
    // Without the select's shape, the logits' size shows in their cast: the upcast of every position's logits
    // takes a good part of the projection's time (one row per sequence would take next to nothing of it).
    if (kept <= 0 && cast_ms < 0.1 * (t_ms - cast_ms)) continue;
    f.claim.activity_ms.insert(f.claim.activity_ms.end(), claim.begin(), claim.end());
    ms += t_ms;
    saved += t_ms * (1 - kept);
    heads += 1;
  }
  if (heads <= 0 || ms <= 0) return;
  double steps = ctx.has_steps() ? ctx.step_count() : 1.0;
  f.id = "logits_all_positions";
  f.title = "the output projection runs on every position, then one position is picked (select, then " +
            std::string("argmax/sampling)") + ": " + format_duration_ms(ms / steps) + " of each " +
            format_duration_ms(ctx.step_ms_now()) + " " + ctx.step_word() + " in the projection and its casts";
  if (positions > 0) f.title += ", " + format_fixed(positions, 0) + " positions computed for each one used";
  f.kernels = {std::string(p.name_of(p.gpu[f.claim.activity_ms.front().first].name))};
  f.suggestion =
      "The logits of every position are computed (and upcast to fp32) although only the last position of each "
      "sequence is used. Slice the hidden states before the lm_head (hidden[:, -1:, :]; transformers' "
      "logits_to_keep=1, the engines' last-token gather).";
  f.numbers = {{"projection_ms_per_step", ms / steps}, {"positions", positions}};
  std::string basis = positions > 0 ? "1/" + format_fixed(positions, 0) + " of the work, from the select's shape"
                                    : "the positions computed are unknown without shapes: nearly all of it";
  push_pattern(ctx, std::move(f), saved / steps, "the projection on the used positions only (" + basis + ")");
}

}  // namespace cuprobe
