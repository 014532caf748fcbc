// unfused_elementwise: chains of elementwise, norm, reduction and cast kernels between the matmuls, each reading and
// writing a whole activation (RMSNorm as to-fp32, pow, mean, rsqrt, mul, to-bf16, mul; rotate_half rotary as slice,
// neg, cat, mul, add). Seen as runs of such kernels back to back, at least kUnfusedChainKernels of them long enough
// not to be launch-bound (short ones, a norm's rsqrt on one value per row, may sit between them). One fused kernel
// reads the chain's input and writes its output once: about the cheapest full-size pass of the chain (the shortest of
// its kernels that take at least half the longest one's time).
#include <algorithm>

#include "analysis/findings_patterns.h"
#include "analysis/thresholds.h"
#include "common/units.h"

namespace cuprobe {
namespace {

constexpr std::size_t kUnfusedChainKernels = 4;

// A kernel a compiler already fused (Inductor's triton_*fused* kernels: torch.compile's output) is the fix, not a
// link of a chain.
bool fusable(const FindingsContext& ctx, std::size_t i) {
  Category c = ctx.classes[i].category;
  if (c != Category::kElementwise && c != Category::kNorm && c != Category::kReduction && c != Category::kCopyCast)
    return false;
  std::string_view n = ctx.profile.name_of(ctx.profile.gpu[i].name);
  return !(n.starts_with("triton_") && n.find("fused") != std::string_view::npos);
}

}  // namespace

void add_unfused_chain_finding(FindingsContext& ctx) {
  const Profile& p = ctx.profile;
  std::vector<std::size_t> k = counted_kernels(ctx);
  Finding f;
  double chain_ms = 0, fused_ms = 0, chains = 0, kernels = 0;
  auto close = [&](std::size_t from, std::size_t to) {  // [from, to)
    std::size_t full = 0;                               // kernels long enough not to be launch-bound
    for (std::size_t j = from; j < to; ++j) full += activity_ms(p, k[j]) * 1e3 > thresholds::kShortKernelUs ? 1 : 0;
    if (full < kUnfusedChainKernels) return;
    double longest = 0, total = 0;
    for (std::size_t j = from; j < to; ++j) longest = std::max(longest, activity_ms(p, k[j]));
    double fused = longest;
    for (std::size_t j = from; j < to; ++j) {
      double t = activity_ms(p, k[j]);
      total += t;
      if (t >= longest / 2) fused = std::min(fused, t);
    }
    double keep = total > 0 ? fused / total : 1.0;
    for (std::size_t j = from; j < to; ++j) f.claim.activity_ms.emplace_back(k[j], activity_ms(p, k[j]) * (1 - keep));
    chain_ms += total;
    fused_ms += fused;
    chains += 1;
    kernels += static_cast<double>(to - from);
  };
  std::size_t start = 0;
  for (std::size_t j = 0; j <= k.size(); ++j) {
    bool in = j < k.size() && fusable(ctx, k[j]) &&
              (j == start || !ctx.has_steps() || ctx.steps.activity_step[k[j]] == ctx.steps.activity_step[k[j - 1]]);
    if (!in) {
      close(start, j);
      start = j + 1;
    }
  }
  double steps = ctx.has_steps() ? ctx.step_count() : 1.0;
  // Fewer chains than every other step: a one-off (weights cast once at load, a warm-up), not the step's pattern.
  if (chains <= 0 || chains < steps / 2) return;
  f.id = "unfused_elementwise";
  f.share = ctx.judged.total_ms > 0 ? chain_ms / ctx.judged.total_ms : 0;
  f.title = format_fixed(chains / steps, 0) + " chains of " + format_fixed(kernels / chains, 1) +
            " elementwise/norm kernels per " + ctx.step_word() +
            ", each kernel a full pass over memory: " + format_duration_ms(chain_ms / steps) + " of each " +
            format_duration_ms(ctx.step_ms_now()) + " " + ctx.step_word() + "; fused, about " +
            format_duration_ms(fused_ms / steps);
  f.kernels = {std::string(p.name_of(p.gpu[f.claim.activity_ms.front().first].name))};
  f.suggestion =
      "Norms, rotary embeddings and activations written as chains of PyTorch operations launch one kernel per "
      "operation, each reading and writing the whole tensor (in fp32 where it was upcast). Fuse them: "
      "torch.compile on the function, or fused kernels (F.rms_norm / a fused RMSNorm, a fused rotary kernel).";
  f.numbers = {{"chains_per_step", chains / steps},
               {"chain_ms_per_step", chain_ms / steps},
               {"fused_ms_per_step", fused_ms / steps}};
  push_pattern(ctx, std::move(f), (chain_ms - fused_ms) / steps,
               "each chain fused into one kernel (the time of its cheapest full-size pass)");
}

}  // namespace cuprobe
