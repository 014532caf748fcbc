// attention_math_path: attention written out (or fallen back to the math path): a batched matmul, softmax, a
// batched matmul, with an explicit mask, a scale and often an fp32 upcast of q, K and V around them. Seen as the
// kernel sequence GEMM -> (up to 4 kernels) -> softmax -> (up to 3) -> GEMM, with the casts just before. A fused
// attention kernel reads Q, K and V once in their own dtype and writes O: its time is those bytes at copy
// bandwidth (with shapes), else the two matmuls' time at the original dtype's width.
#include <algorithm>

#include "analysis/findings_patterns.h"
#include "analysis/pattern_thresholds.h"
#include "analysis/thresholds.h"
#include "common/units.h"

namespace cuprobe {
namespace {

bool softmax_kernel(const FindingsContext& ctx, std::size_t i) {
  std::string_view n = ctx.profile.name_of(ctx.profile.gpu[i].name);
  bool named = n.find("oftmax") != std::string_view::npos || n.find("SoftMax") != std::string_view::npos;
  return named && ctx.classes[i].category != Category::kAttention;
}

// The GEMM runs batched (bmm, baddbmm, one matmul per head): where the trace names its operator, by that name;
// without one (a run file), by its grid: cuBLAS puts the batch in gridDim.z, and a plain matmul (an MLP's, or a
// hand-written single-head q @ k.T) has one.
bool batched(const FindingsContext& ctx, std::size_t i) {
  std::string path = ctx.launches.operator_path(ctx.profile.gpu[i].correlation);
  if (path.empty()) return ctx.profile.gpu[i].grid[2] > 1;
  return path.find("bmm") != std::string::npos;
}

// A cast kernel just before the first matmul that is an operand's upcast: a dtype copy (not a gather), and where
// the bytes are known, no more than twice what the matmul reads (a whole pool cast before a gather is not one).
bool upcast_of(const FindingsContext& ctx, std::size_t cast, std::size_t gemm) {
  if (ctx.classes[cast].category != Category::kCopyCast) return false;
  std::string_view n = ctx.profile.name_of(ctx.profile.gpu[cast].name);
  if (n.find("gather") != std::string_view::npos || n.find("index") != std::string_view::npos ||
      n.find("Cat") != std::string_view::npos)
    return false;
  const auto& wc = ctx.work.activity[cast];
  const auto& wg = ctx.work.activity[gemm];
  if (wc.known && wg.known) return wc.bytes <= 2 * wg.bytes;
  // Without bytes, by time: an upcast moves 1.5x what the matmul then reads of it (2 + 4 bytes against 4).
  const Profile& p = ctx.profile;
  return p.gpu[cast].duration() <= 3 * p.gpu[gemm].duration();
}

}  // namespace

void add_attention_math_finding(FindingsContext& ctx) {
  const Profile& p = ctx.profile;
  std::vector<std::size_t> k = counted_kernels(ctx);
  std::optional<double> bw = copy_bandwidth(ctx);
  Finding f;
  double region_ms = 0, fused_ms = 0, regions = 0;
  bool from_shapes = true, upcast_seen = false;
  std::size_t floor = 0;  // kernels before this are an earlier region's
  for (std::size_t a = 0; a < k.size(); ++a) {
    if (ctx.classes[k[a]].category != Category::kGemm || !batched(ctx, k[a])) continue;
    std::size_t s = a + 1;
    while (s < k.size() && s <= a + 5 && !softmax_kernel(ctx, k[s])) ++s;
    if (s >= k.size() || s > a + 5) continue;
    std::size_t b = s + 1;
    while (b < k.size() && b <= s + 4 && ctx.classes[k[b]].category != Category::kGemm) ++b;
    if (b >= k.size() || b > s + 4 || !batched(ctx, k[b])) continue;
    // The region: the casts just before the first matmul, and one just after the second (the output cast back).
    std::size_t first = a, last = b;
    while (first > floor && a - first < 3 && upcast_of(ctx, k[first - 1], k[a])) --first;
    if (last + 1 < k.size() && upcast_of(ctx, k[last + 1], k[b])) ++last;  // the output cast back, as small
    bool upcast = first < a;  // the operands cast up before the first matmul
    upcast_seen = upcast_seen || upcast;
    double t = 0;
    for (std::size_t j = first; j <= last; ++j) t += activity_ms(p, k[j]);
    // The fused kernel: Q, K, V and O once, in the dtype they had before any upcast.
    double width = upcast ? 0.5 : 1.0;  // fp32 matmuls over tensors cast up from 16 bits read twice the bytes
    const auto& wa = ctx.work.activity[k[a]];
    const auto& wb = ctx.work.activity[k[b]];
    double fused = 0;
    if (wa.known && wb.known && bw) {
      if (wa.dtype != PeakDtype::kFp32) width = 1.0;
      fused = (wa.bytes + wb.bytes) * width / *bw * 1e3;
    } else {
      from_shapes = false;
      fused = (activity_ms(p, k[a]) + activity_ms(p, k[b])) * width;
    }
    fused = std::min(fused, t);
    region_ms += t;
    fused_ms += fused;
    regions += 1;
    double keep = t > 0 ? fused / t : 1.0;
    for (std::size_t j = first; j <= last; ++j)
      f.claim.activity_ms.emplace_back(k[j], activity_ms(p, k[j]) * (1 - keep));
    a = last;
    floor = last + 1;
  }
  if (regions <= 0) return;
  double steps = ctx.has_steps() ? ctx.step_count() : 1.0;
  f.id = "attention_math_path";
  f.share = ctx.judged.total_ms > 0 ? region_ms / ctx.judged.total_ms : 0;
  f.title = format_fixed(regions / steps, 0) + " attentions per " + ctx.step_word() +
            " run on the math path (matmul, softmax, matmul" + (upcast_seen ? ", with fp32 upcasts" : "") +
            "): " + format_duration_ms(region_ms / steps) + " of each " + format_duration_ms(ctx.step_ms_now()) + " " +
            ctx.step_word() + "; a fused kernel would take about " + format_duration_ms(fused_ms / steps);
  f.kernels = {std::string(p.name_of(p.gpu[f.claim.activity_ms.front().first].name))};
  f.suggestion =
      "Attention is computed as separate matmul, mask, softmax and matmul kernels (hand-written attention, an "
      "explicit float mask, or an fp32 upcast \"for safety\"), writing the scores to memory and reading K and V "
      "again in fp32. Call torch.nn.functional.scaled_dot_product_attention on the 16-bit tensors (is_causal "
      "instead of a mask where it is causal): one fused kernel reads Q, K and V once.";
  f.numbers = {{"attentions_per_step", regions / steps},
               {"math_path_ms_per_step", region_ms / steps},
               {"fused_ms_per_step", fused_ms / steps}};
  std::string basis = from_shapes ? "Q, K, V and O once at copy bandwidth, from the shapes"
                                  : "the two matmuls' own time" +
                                        std::string(upcast_seen ? " at half the width (16-bit, not fp32)" : "");
  push_pattern(ctx, std::move(f), (region_ms - fused_ms) / steps,
               "fused attention (scaled_dot_product_attention; its time: " + basis + ")");
}

}  // namespace cuprobe
