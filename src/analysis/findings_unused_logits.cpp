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

// A kernel reading only a picked part of what the kernel before it wrote: a full pass over that output would read as
// many bytes as the cast wrote and take a good part of the cast's time (a cast reads its input and writes its
// output, a reduction reads it once); well under a tenth of it reads at most a fraction of the output.
constexpr double kPickedReadShare = 0.1;

struct Projections {
  Finding f;
  double ms = 0, saved = 0, heads = 0, positions = 0;
};

// The logits' pattern on the GPU's sequence alone (run files: no operators): a GEMM, the cast of its output right
// after it on the same stream taking at least kPickedReadShare of the GEMM's time (one row per sequence would take
// next to nothing of it), then a reduction or sampling kernel taking under kPickedReadShare of the cast's time (it
// reads one position of the cast's output, not all of them).
void logits_from_kernels(FindingsContext& ctx, Projections& out) {
  const Profile& p = ctx.profile;
  std::vector<std::size_t> k = counted_kernels(ctx);
  for (std::size_t j = 0; j + 2 < k.size(); ++j) {
    const GpuActivity &g = p.gpu[k[j]], &c = p.gpu[k[j + 1]], &r = p.gpu[k[j + 2]];
    Category rc = ctx.classes[k[j + 2]].category;
    if (ctx.classes[k[j]].category != Category::kGemm || ctx.classes[k[j + 1]].category != Category::kCopyCast ||
        (rc != Category::kReduction && rc != Category::kSampling) || g.stream != c.stream || c.stream != r.stream)
      continue;
    double g_ms = activity_ms(p, k[j]), c_ms = activity_ms(p, k[j + 1]), r_ms = activity_ms(p, k[j + 2]);
    if (c_ms < kPickedReadShare * g_ms || r_ms >= kPickedReadShare * c_ms) continue;
    for (std::size_t i : {k[j], k[j + 1]}) out.f.claim.activity_ms.emplace_back(i, activity_ms(p, i));
    out.ms += g_ms + c_ms;
    out.saved += g_ms + c_ms;
    out.heads += 1;
  }
}

void push_unused_logits(FindingsContext& ctx, Projections out, bool from_kernels) {
  const Profile& p = ctx.profile;
  if (out.heads <= 0 || out.ms <= 0) return;
  Finding& f = out.f;
  double steps = ctx.has_steps() ? ctx.step_count() : 1.0;
  f.id = "logits_all_positions";
  f.title = std::string("the output projection runs on every position, then one position is picked ") +
            (from_kernels ? "(a GEMM, the cast of its output, then a reduction reading a small part of it)"
                          : "(select, then argmax/sampling)") +
            ": " + format_duration_ms(out.ms / steps) + " of each " + format_duration_ms(ctx.step_ms_now()) + " " +
            ctx.step_word() + " in the projection and its casts";
  if (out.positions > 0) f.title += ", " + format_fixed(out.positions, 0) + " positions computed for each one used";
  f.kernels = {std::string(p.name_of(p.gpu[f.claim.activity_ms.front().first].name))};
  f.suggestion =
      "The logits of every position are computed (and upcast to fp32) although only the last position of each "
      "sequence is used. Slice the hidden states before the lm_head (hidden[:, -1:, :]; transformers' "
      "logits_to_keep=1, the engines' last-token gather).";
  f.numbers = {{"projection_ms_per_step", out.ms / steps}, {"positions", out.positions}};
  std::string basis = out.positions > 0
                          ? "1/" + format_fixed(out.positions, 0) + " of the work, from the select's shape"
                      : from_kernels ? "the positions computed are unknown without operators: nearly all of it, "
                                       "as the reduction after the cast reads under a tenth of the cast's output"
                                     : "the positions computed are unknown without shapes: nearly all of it";
  push_pattern(ctx, std::move(out.f), out.saved / steps, "the projection on the used positions only (" + basis + ")");
}

}  // namespace

void add_unused_logits_finding(FindingsContext& ctx, const OperatorCalls& calls) {
  const Profile& p = ctx.profile;
  Projections out;
  if (calls.empty()) {
    logits_from_kernels(ctx, out);
    push_unused_logits(ctx, std::move(out), true);
    return;
  }
  std::vector<std::size_t> top;
  for (std::size_t k = 0; k < calls.size(); ++k) {
    if (calls[k].depth == 0) top.push_back(k);
  }
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
        out.positions = static_cast<double>(dims[static_cast<std::size_t>(d)]);
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
    if (kept <= 0 && cast_ms < kPickedReadShare * (t_ms - cast_ms)) continue;
    out.f.claim.activity_ms.insert(out.f.claim.activity_ms.end(), claim.begin(), claim.end());
    out.ms += t_ms;
    out.saved += t_ms * (1 - kept);
    out.heads += 1;
  }
  push_unused_logits(ctx, std::move(out), false);
}

}  // namespace cuprobe
