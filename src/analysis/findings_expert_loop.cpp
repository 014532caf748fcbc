// moe_expert_loop: a mixture-of-experts layer run as a Python loop over the experts (transformers' eager Mixtral
// block: per expert torch.where(mask) -- a nonzero, which reads its size back to the host --, index the tokens,
// small GEMMs, index_add_). Seen as many nonzero calls per step with GEMMs between them. One grouped (or batched)
// GEMM over the experts reads the same expert weights once without stopping: the loop's GPU span (its kernels and
// the idle between them) becomes the weights' bytes at copy bandwidth (from the shapes), else the loop's GEMM time.
#include <algorithm>
#include <map>

#include "analysis/findings_patterns.h"
#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {
namespace {

bool nonzero_op(std::string_view op) {
  std::string_view b = op_base_name(op);
  return b == "nonzero" || b == "nonzero_numpy" || b == "argwhere";
}

constexpr int kMinExpertsPerLoop = 4;

// The expert loops found: their GPU span, one grouped GEMM's time instead, how many and their experts.
struct ExpertLoops {
  double span_ms = 0, grouped_ms = 0, loops = 0, experts = 0;
  bool from_shapes = true;
  std::map<std::size_t, double> saved_by_step;  // run files: the saving by step, for the typical step's
};

// The loops on the operators (torch traces): experts (a nonzero stop, then an index_add_ combine) one after another.
void loops_from_operators(const FindingsContext& ctx, const OperatorCalls& calls, ExpertLoops& out) {
  const Profile& p = ctx.profile;
  std::optional<double> bw = copy_bandwidth(ctx);
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
      out.from_shapes = out.from_shapes && all_shapes && weight_bytes > 0 && bw;
      grouped = std::min(grouped, span);
      out.span_ms += span;
      out.grouped_ms += grouped;
      out.loops += 1;
      out.experts += found;
    }
    t = last_combine + 1;
  }
}

// The loops on the GPU's sequence alone (run files: no operators). torch.where/nonzero counts (a reduction), reads the
// count back (a device-to-host copy) and then selects (a stream-compaction kernel: cub's DeviceSelect, nonzero's
// write_indices): a read-back followed within kKernelsToSelect kernels by a select is an expert's stop; its combine
// an index_add_/scatter kernel (indexFunc*, scatter). A loop: at least kMinExpertsPerLoop stops in a row, each
// followed by GEMM kernels and a combine before the next, in one step. Its span runs from the first stop to the last
// combine's end; one grouped GEMM takes about the loop's GEMM kernels' time (without the weights' shapes).
void loops_from_kernels(const FindingsContext& ctx, ExpertLoops& out) {
  const Profile& p = ctx.profile;
  constexpr std::size_t kKernelsToSelect = 3;
  // From an expert's combine to the next expert's stop (nonzero counting the next expert's tokens, a copy): more
  // kernels than this, and the loop has ended (the layer's own kernels follow: its add, the next norm and router).
  constexpr std::size_t kKernelsBetweenExperts = 6;
  std::vector<std::size_t> seq;  // counted kernels and device-to-host copies, in start order
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    const GpuActivity& a = p.gpu[i];
    bool copy_back = a.kind == GpuActivityKind::kMemcpy && a.memcpy_kind == MemcpyKind::kDtoH;
    if (ctx.counted(i) && (a.kind == GpuActivityKind::kKernel || copy_back)) seq.push_back(i);
  }
  auto name_has = [&](std::size_t i, std::string_view w) {
    return p.name_of(p.gpu[i].name).find(w) != std::string_view::npos;
  };
  auto kernel = [&](std::size_t i) { return p.gpu[i].kind == GpuActivityKind::kKernel; };
  auto stop = [&](std::size_t j) {
    if (kernel(seq[j])) return false;
    for (std::size_t k = j + 1; k < seq.size() && k <= j + kKernelsToSelect; ++k) {
      if (name_has(seq[k], "DeviceSelect") || name_has(seq[k], "write_indices") || name_has(seq[k], "nonzero"))
        return true;
    }
    return false;
  };
  auto combine = [&](std::size_t i) { return kernel(i) && (name_has(i, "indexFunc") || name_has(i, "scatter")); };
  std::size_t j = 0;
  while (j < seq.size()) {
    if (!stop(j)) {
      ++j;
      continue;
    }
    int step = ctx.steps.activity_step[seq[j]];
    int found = 0;
    double gemm = 0, expert_gemm = 0;
    std::size_t last_combine = 0, k = j;
    bool open = false;
    for (; k < seq.size() && ctx.steps.activity_step[seq[k]] == step; ++k) {
      std::size_t i = seq[k];
      if (stop(k)) {
        if (open) break;  // no combine since the last stop: not an expert
        open = true;
        expert_gemm = 0;
      } else if (kernel(i) && ctx.classes[i].category == Category::kGemm) {
        expert_gemm += activity_ms(p, i);
      } else if (!open && found > 0 && k > last_combine + kKernelsBetweenExperts) {
        break;  // past the loop: the next layer's own kernels
      } else if (open && combine(i) && expert_gemm > 0) {
        open = false;
        ++found;
        gemm += expert_gemm;
        last_combine = k;
      }
    }
    if (found >= kMinExpertsPerLoop) {
      double span = static_cast<double>(p.gpu[seq[last_combine]].end - p.gpu[seq[j]].start) / 1e6;
      out.span_ms += span;
      out.grouped_ms += std::min(gemm, span);
      out.saved_by_step[static_cast<std::size_t>(step)] += span - std::min(gemm, span);
      out.loops += 1;
      out.experts += found;
      out.from_shapes = false;
      j = last_combine + 1;
    } else {
      j = std::max(k, j + 1);
    }
  }
}

}  // namespace

void add_expert_loop_finding(FindingsContext& ctx, const OperatorCalls& calls) {
  if (!ctx.has_steps()) return;
  ExpertLoops found;
  bool from_kernels = calls.empty();
  if (from_kernels)
    loops_from_kernels(ctx, found);
  else
    loops_from_operators(ctx, calls, found);
  double span_ms = found.span_ms, grouped_ms = found.grouped_ms, loops = found.loops, experts = found.experts;
  bool from_shapes = found.from_shapes;
  Finding f;
  if (loops <= 0) return;
  double steps = ctx.step_count();
  // Its claim: the loop's span less the grouped GEMM, GPU idle (the stops) and kernel time alike; in a run file the
  // typical step's (the median over the steps: the first ones hold the warm-up's gaps).
  double saved = (span_ms - grouped_ms) / steps;
  if (from_kernels) {
    std::vector<double> by_step(ctx.steps.summary.steps.size(), 0.0);
    for (auto [st, ms] : found.saved_by_step) {
      if (st < by_step.size()) by_step[st] = ms;
    }
    saved = percentile(by_step, 50);
  }
  f.claim.own_ms = saved;
  // The fix replaces the loop's launches and its read-backs by a few launches: not held to the host's floor.
  f.claim.changes_launches = true;
  f.id = "moe_expert_loop";
  f.title = format_fixed(loops / steps, 0) + " MoE layers per step loop over their experts in Python (" +
            format_fixed(experts / loops, 1) + " experts each, a torch.where/nonzero read-back per expert" +
            (from_kernels ? ", seen as a read-back of a count, a select, GEMMs and an index_add per expert" : "") +
            "): " + format_duration_ms(span_ms / steps) + " of each " + format_duration_ms(ctx.step_ms_now()) +
            " step; one grouped GEMM over the experts about " + format_duration_ms(grouped_ms / steps);
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
