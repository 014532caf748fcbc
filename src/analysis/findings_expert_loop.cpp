// moe_expert_loop: a mixture-of-experts layer run as a Python loop over the experts (transformers' eager Mixtral
// block: per expert torch.where(mask) -- a nonzero, which reads its size back to the host --, index the tokens,
// small GEMMs, index_add_). Seen as many nonzero calls per step with GEMMs between them. One grouped (or batched)
// GEMM over the experts reads the same expert weights once without stopping: the loop's GPU span (its kernels and
// the idle between them) becomes the weights' bytes at copy bandwidth (from the shapes), else the loop's GEMM time.
#include <algorithm>

#include "analysis/findings_patterns.h"
#include "common/units.h"

namespace cuprobe {
namespace {

bool nonzero_op(std::string_view op) {
  std::string_view b = op_base_name(op);
  return b == "nonzero" || b == "nonzero_numpy" || b == "argwhere";
}

constexpr int kMinExpertsPerLoop = 4;

}  // namespace

void add_expert_loop_finding(FindingsContext& ctx, const std::vector<OpCall>& calls) {
  const Profile& p = ctx.profile;
  if (!ctx.has_steps()) return;
  std::optional<double> bw = copy_bandwidth(ctx);
  Finding f;
  double span_ms = 0, grouped_ms = 0, loops = 0, experts = 0;
  bool from_shapes = true;
  // The top-level operators: which stop for an expert's tokens (a nonzero inside) and which combine its output.
  std::vector<std::size_t> top;
  std::vector<char> stop, combine;
  for (std::size_t m = 0; m < calls.size(); ++m) {
    if (calls[m].depth == 0) {
      top.push_back(m);
      std::string_view b = op_base_name(calls[m].name);
      stop.push_back(nonzero_op(calls[m].name));
      combine.push_back(b == "index_add_" || b == "index_add" || b == "scatter_add_" || b == "index_put_");
    } else if (!top.empty() && nonzero_op(calls[m].name)) {
      stop.back() = 1;
    }
  }
  // A loop: experts (a stop, then a combine) one after another, at most kBetweenExperts operators apart.
  constexpr std::size_t kBetweenExperts = 4;
  std::size_t t = 0;
  while (t < top.size()) {
    if (!stop[t]) {
      ++t;
      continue;
    }
    int found = 0;
    std::size_t last_combine = 0, u = t;
    bool open = false;  // a stop without its combine yet
    for (; u < top.size(); ++u) {
      if (calls[top[u]].tid != calls[top[t]].tid) continue;
      if (stop[u]) {
        if (!open && found > 0 && u > last_combine + kBetweenExperts + 1) break;
        ++found;
        open = true;
      } else if (combine[u] && open) {
        last_combine = u;
        open = false;
      } else if (!open && found > 0 && u > last_combine + kBetweenExperts) {
        break;
      }
    }
    if (found < kMinExpertsPerLoop || last_combine == 0) {
      t = std::max(u, t + 1);
      continue;
    }
    std::size_t k = top[t], last_body = top[last_combine];
    if (last_combine + 1 < top.size()) last_body = top[last_combine + 1] - 1;  // the combine's nested operators
    // The loop's GPU span, its GEMM kernels and the expert weights' bytes.
    TimeNs first = -1, end = -1;
    double gemm_ms = 0, weight_bytes = 0;
    bool all_shapes = true;
    for (std::size_t m = k; m <= last_body; ++m) {
      const OpCall& c = calls[m];
      if (c.tid != calls[k].tid) continue;
      for (std::size_t i : c.activities) {
        if (!ctx.counted(i)) continue;
        const GpuActivity& a = p.gpu[i];
        if (first < 0 || a.start < first) first = a.start;
        end = std::max(end, a.end);
      }
      if (gemm_op(c.name)) {
        bool outer = true;  // count a GEMM once: the outermost GEMM operator
        for (std::size_t up = m; up-- > k;) {
          if (calls[up].depth < c.depth && gemm_op(calls[up].name)) {
            outer = false;
            break;
          }
          if (calls[up].depth == 0) break;
        }
        if (!outer) continue;
        for (std::size_t i : c.activities) {
          if (ctx.counted(i) && p.gpu[i].kind == GpuActivityKind::kKernel) gemm_ms += activity_ms(p, i);
        }
        const auto& w = op_arg_dims(c, 1);
        int bytes = 0;
        std::string_view type = op_arg_type(c, 1);
        bytes = type == "c10::BFloat16" || type == "c10::Half" ? 2 : type == "float" ? 4 : type.empty() ? 0 : 1;
        if (w.size() >= 2 && bytes > 0) {
          double n = 1;
          for (auto d : w) n *= static_cast<double>(d);
          weight_bytes += n * bytes;
        } else {
          all_shapes = false;
        }
      }
    }
    if (first >= 0 && end > first) {
      double span = static_cast<double>(end - first) / 1e6;
      double grouped = all_shapes && weight_bytes > 0 && bw ? weight_bytes / *bw * 1e3 : gemm_ms;
      from_shapes = from_shapes && all_shapes && weight_bytes > 0 && bw;
      grouped = std::min(grouped, span);
      span_ms += span;
      grouped_ms += grouped;
      loops += 1;
      experts += found;
    }
    t = last_combine + 1;
  }
  if (loops <= 0) return;
  double steps = ctx.step_count();
  // Its claim: the loop's span less the grouped GEMM, GPU idle (the stops) and kernel time alike.
  double saved = (span_ms - grouped_ms) / steps;
  f.claim.own_ms = saved;
  f.id = "moe_expert_loop";
  f.title = format_fixed(loops / steps, 0) + " MoE layers per step loop over their experts in Python (" +
            format_fixed(experts / loops, 1) +
            " experts each, a torch.where/nonzero read-back per expert): " + format_duration_ms(span_ms / steps) +
            " of each " + format_duration_ms(ctx.step_ms_now()) + " step; one grouped GEMM over the experts about " +
            format_duration_ms(grouped_ms / steps);
  f.suggestion =
      "Each expert is run on its own: a torch.where/nonzero that stops the host to read how many tokens it got, an "
      "index, small GEMMs and an index_add_. Run all experts at once: stack the expert weights and use a grouped "
      "GEMM (torch._grouped_mm, a fused MoE kernel such as vLLM's/SGLang's fused_moe) or one torch.bmm over the "
      "experts with dense routing weights.";
  f.numbers = {{"moe_layers_per_step", loops / steps},
               {"experts_per_layer", experts / loops},
               {"loop_span_ms_per_step", span_ms / steps},
               {"grouped_gemm_ms_per_step", grouped_ms / steps}};
  std::string basis = from_shapes ? "the expert weights' bytes at copy bandwidth" : "the loop's GEMM kernels' time";
  push_pattern(ctx, std::move(f), saved, "one grouped GEMM over the experts (" + basis + ")");
}

}  // namespace cuprobe
