// kv_heads_repeated: grouped-query attention's K and V expanded to the query heads before attention
// (repeat_interleave, or transformers' repeat_kv: expand + reshape), every layer: the cache is written n_rep times
// over and attention reads it n_rep times. Seen as the repeat operators' copy kernels just before an attention
// operator. The fix (scaled_dot_product_attention(..., enable_gqa=True), or a GQA-aware kernel) reads the KV heads
// once: the copies gone and attention's K/V reads divided by n_rep (from the repeat count where the trace records
// it; else from the copies' time against attention's: a copy reads X and writes n_rep X, attention reads n_rep X).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "analysis/findings_patterns.h"
#include "common/units.h"

namespace cuprobe {
namespace {

bool repeat_op(const OperatorCalls& calls, std::size_t k) {
  std::string_view b = op_base_name(calls[k].name);
  if (b == "repeat_interleave" || b == "repeat") return true;
  // expand + reshape (a copy): transformers' repeat_kv.
  return b == "reshape" && k > 0 && op_base_name(calls[k - 1].name) == "expand";
}

double concrete_number(const OpCall& c, std::size_t i) {
  if (!c.inputs || i >= c.inputs->args.size()) return 0;
  const std::string& s = c.inputs->args[i].concrete;
  int v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && ptr == s.data() + s.size() ? v : 0;
}

// K and V copied alike: two calls of one copy kernel within this of each other's time.
constexpr double kAlikeCopies = 0.1;

// The repeat on the GPU's sequence alone (run files: no operators): an attention kernel right after two calls of one
// copy kernel on its stream (K and V, alike in time; not a cat, which grows a cache, nor a gather) that together take
// at least the attention's own time: they write at least what attention reads once, every layer. Their time is
// saved; attention's reads stay (n_rep unknown without the repeat's arguments).
void repeats_from_kernels(FindingsContext& ctx, Finding& f, double& copy_ms, double& layers) {
  const Profile& p = ctx.profile;
  std::vector<std::size_t> k = counted_kernels(ctx);
  auto plain_copy = [&](std::size_t i) {
    std::string_view n = p.name_of(p.gpu[i].name);
    return ctx.classes[i].category == Category::kCopyCast && n.find("CatArray") == std::string_view::npos &&
           n.find("index") == std::string_view::npos && n.find("gather") == std::string_view::npos;
  };
  for (std::size_t j = 2; j < k.size(); ++j) {
    const GpuActivity &a = p.gpu[k[j]], &kc = p.gpu[k[j - 2]], &vc = p.gpu[k[j - 1]];
    if (ctx.classes[k[j]].category != Category::kAttention || !plain_copy(k[j - 2]) || !plain_copy(k[j - 1]) ||
        kc.name != vc.name || kc.stream != a.stream || vc.stream != a.stream)
      continue;
    double t_k = activity_ms(p, k[j - 2]), t_v = activity_ms(p, k[j - 1]);
    if (std::abs(t_k - t_v) > kAlikeCopies * std::max(t_k, t_v) || t_k + t_v < activity_ms(p, k[j])) continue;
    f.claim.activity_ms.emplace_back(k[j - 2], t_k);
    f.claim.activity_ms.emplace_back(k[j - 1], t_v);
    copy_ms += t_k + t_v;
    layers += 1;
  }
}

}  // namespace

void add_kv_repeat_finding(FindingsContext& ctx, const OperatorCalls& calls) {
  const Profile& p = ctx.profile;
  std::vector<std::size_t> top;
  for (std::size_t k = 0; k < calls.size(); ++k) {
    if (calls[k].depth == 0) top.push_back(k);
  }
  Finding f;
  double copy_ms = 0, attn_saved = 0, layers = 0, rep_seen = 0;
  std::set<std::size_t> used;
  for (std::size_t t = 0; t < top.size(); ++t) {
    const OpCall& c = calls[top[t]];
    if (!repeat_op(calls, top[t]) || used.count(t)) continue;
    // The repeats of this attention (K and V), then the attention within a few operators.
    std::vector<std::size_t> repeats = {t};
    std::size_t a = t + 1;
    for (; a < top.size() && a <= t + 5; ++a) {
      const OpCall& n = calls[top[a]];
      if (n.tid != c.tid) continue;
      if (repeat_op(calls, top[a])) repeats.push_back(a);
      if (attention_op(n.name) || gemm_op(n.name)) break;
    }
    if (a >= top.size() || a > t + 5) continue;
    const OpCall& attn = calls[top[a]];
    double rep_ms = 0, rep = 0;
    for (std::size_t r : repeats) {
      used.insert(r);
      const OpCall& rc = calls[top[r]];
      for (std::size_t i : rc.activities) {
        if (!ctx.counted(i)) continue;
        double ms = activity_ms(p, i);
        rep_ms += ms;
        f.claim.activity_ms.emplace_back(i, ms);
      }
      if (op_base_name(rc.name) == "repeat_interleave") rep = std::max(rep, concrete_number(rc, 1));
    }
    double attn_ms = 0;
    std::vector<std::size_t> attn_kernels;
    for (std::size_t i : attn.activities) {
      if (!ctx.counted(i) || p.gpu[i].kind != GpuActivityKind::kKernel) continue;
      attn_ms += activity_ms(p, i);
      attn_kernels.push_back(i);
    }
    if (rep <= 1 && rep_ms > 0 && attn_ms > 0 && attn_ms < rep_ms) {
      double r = attn_ms / rep_ms;  // = rep / (1 + rep) when both run at the same bandwidth
      rep = std::clamp(r / (1 - r), 1.0, 16.0);
    }
    if (rep > 1) {
      for (std::size_t i : attn_kernels) {
        double saved = activity_ms(p, i) * (1 - 1 / rep);
        attn_saved += saved;
        f.claim.activity_ms.emplace_back(i, saved);
      }
      rep_seen = rep;
    }
    copy_ms += rep_ms;
    layers += 1;
  }
  bool from_kernels = calls.empty();
  if (from_kernels) repeats_from_kernels(ctx, f, copy_ms, layers);
  if (layers <= 0 || copy_ms <= 0) return;
  double steps = ctx.has_steps() ? ctx.step_count() : 1.0;
  f.id = "kv_heads_repeated";
  f.title = from_kernels ? "K and V copied right before attention " + format_fixed(layers / steps, 0) + " times per " +
                               ctx.step_word() + " (two alike copies taking at least the attention's own time: " +
                               "repeat_interleave/repeat_kv to the query heads, or a layout copy): the copies take " +
                               format_duration_ms(copy_ms / steps) + " of each " +
                               format_duration_ms(ctx.step_ms_now()) + " " + ctx.step_word()
                         : "K and V repeated to the query heads before attention " + format_fixed(layers / steps, 0) +
                               " times per " + ctx.step_word() + " (repeat_interleave/repeat_kv): the copies take " +
                               format_duration_ms(copy_ms / steps) + " of each " +
                               format_duration_ms(ctx.step_ms_now()) + " " + ctx.step_word();
  if (rep_seen > 1) f.title += ", and attention reads K and V " + format_fixed(rep_seen, 0) + " times over";
  f.kernels = {std::string(p.name_of(p.gpu[f.claim.activity_ms.front().first].name))};
  f.suggestion =
      "Grouped-query attention's K and V are expanded to every query head (repeat_interleave, transformers' "
      "repeat_kv) before attention: the cache is copied n_rep times over each layer and read n_rep times. Pass the "
      "KV heads as they are: scaled_dot_product_attention(q, k, v, enable_gqa=True), or a GQA-aware kernel "
      "(FlashAttention, FlashInfer).";
  f.numbers = {{"repeats_per_step", layers / steps},
               {"copy_ms_per_step", copy_ms / steps},
               {"n_rep", rep_seen},
               {"attention_saved_ms_per_step", attn_saved / steps}};
  push_pattern(ctx, std::move(f), (copy_ms + attn_saved) / steps,
               from_kernels
                   ? "attention on the KV heads as they are (enable_gqa=True: the copies gone; attention's own "
                     "reads kept, n_rep being unknown without operators)"
                   : "attention on the KV heads as they are (enable_gqa=True: the copies gone, K and V read "
                     "once)");
}

}  // namespace cuprobe
