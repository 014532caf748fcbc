#include "analysis/findings_patterns.h"

#include <algorithm>
#include <set>

#include "analysis/pattern_thresholds.h"
#include "analysis/thresholds.h"
#include "common/units.h"

namespace cuprobe {

double activity_ms(const Profile& profile, std::size_t i) {
  return static_cast<double>(profile.gpu[i].duration()) / 1e6;
}

bool push_pattern(FindingsContext& ctx, Finding f, double saved_ms, const std::string& fix) {
  double now = ctx.step_ms_now();
  if (now <= 0 || saved_ms < thresholds::kPatternMinStepShare * now) return false;
  // Never more than the step holds: an idle-type saving at most the GPU's idle, any at most the step.
  saved_ms = std::min(saved_ms, now);
  if (f.claim.activity_ms.empty() && f.claim.idle_ms > 0 && ctx.has_steps())
    saved_ms = std::min(saved_ms, std::max(0.0, now - ctx.steps.summary.gpu_median_ms));
  double after = now - saved_ms;
  f.what_if.step_ms_now = now;
  f.what_if.step_ms_after_alone = after;
  f.what_if.description = fix + ": " + ctx.step_word() + " " + format_duration_ms(now) + " -> " +
                          format_duration_ms(after) + " (-" + format_percent(saved_ms / now) + ")";
  f.step_share = std::clamp(saved_ms / now, 0.0, 1.0);
  if (f.share <= 0) f.share = f.step_share;
  f.numbers.emplace_back("saved_ms_per_step", saved_ms);
  ctx.analysis.findings.push_back(std::move(f));
  return true;
}

std::vector<std::size_t> counted_kernels(const FindingsContext& ctx) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < ctx.profile.gpu.size(); ++i) {
    if (ctx.profile.gpu[i].kind == GpuActivityKind::kKernel && ctx.counted(i)) out.push_back(i);
  }
  return out;
}

std::optional<double> copy_bandwidth(const FindingsContext& ctx) {
  if (!ctx.analysis.peaks || !ctx.analysis.peaks->memory_tbps) return std::nullopt;
  return *ctx.analysis.peaks->memory_tbps * thresholds::kCopyBandwidthShare * 1e12;
}

namespace {

bool one_of(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

bool gemm_op(std::string_view op) {
  return one_of(op_base_name(op), {"linear", "matmul", "mm", "addmm", "bmm", "baddbmm", "_scaled_mm"});
}

bool cast_op(std::string_view op) {
  return one_of(op_base_name(op), {"to", "_to_copy", "type_as", "float", "half", "bfloat16"});
}

bool attention_op(std::string_view op) {
  std::string_view b = op_base_name(op);
  return b.find("scaled_dot_product") != std::string_view::npos ||
         b.find("flash_attention") != std::string_view::npos ||
         b.find("efficient_attention") != std::string_view::npos || b.find("flash_attn") != std::string_view::npos;
}

namespace {

// copy_cast_dominant and host_memcpy_in_step count only the copies no pattern finding explains: a cast a pattern
// names (a weight cast per forward, an attention's upcast) or a pageable copy is that finding's, with the fix that
// removes it. Nor does copy_cast_dominant claim gathers: a gather copies what the step reads (gathering first is
// its own fix), so no fix of its removes them.
void leave_copies_to_patterns(const Profile& profile, RankAnalysis& analysis, std::size_t first_pattern) {
  std::set<std::size_t> taken;
  for (std::size_t k = first_pattern; k < analysis.findings.size(); ++k) {
    for (const auto& [i, ms] : analysis.findings[k].claim.activity_ms) taken.insert(i);
  }
  auto gather = [&](std::size_t i) {
    std::string_view n = profile.name_of(profile.gpu[i].name);
    return n.find("gather") != std::string_view::npos || n.find("index") != std::string_view::npos ||
           n.find("Index") != std::string_view::npos;
  };
  for (std::size_t k = 0; k < first_pattern; ++k) {
    Finding& f = analysis.findings[k];
    if (f.id != "copy_cast_dominant" && f.id != "host_memcpy_in_step") continue;
    bool copies = f.id == "copy_cast_dominant";
    auto& c = f.claim.activity_ms;
    c.erase(std::remove_if(c.begin(), c.end(),
                           [&](const auto& p) { return taken.count(p.first) > 0 || (copies && gather(p.first)); }),
            c.end());
  }
}

}  // namespace

void add_pattern_findings(FindingsContext& ctx) {
  std::size_t first = ctx.analysis.findings.size();
  add_step_gap_findings(ctx);
  add_cat_growth_finding(ctx);
  const OperatorCalls calls(ctx.profile);  // after the step gaps' findings: not alive at their peak
  add_weight_cast_finding(ctx, calls);
  add_attention_math_finding(ctx);
  add_fp32_matmul_finding(ctx);
  add_kv_repeat_finding(ctx, calls);
  add_unfused_chain_finding(ctx);
  add_expert_loop_finding(ctx, calls);
  add_unused_logits_finding(ctx, calls);
  leave_copies_to_patterns(ctx.profile, ctx.analysis, first);
}

}  // namespace cuprobe
