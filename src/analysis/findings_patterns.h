// The pattern findings: one per family of planted bottleneck (issue 34's zoo; docs/findings.md "Patterns"). Each
// names a concrete cause from what the trace shows (an operator sequence, the GPU's idle gaps and what preceded
// them, a kernel's dtype or growth), with evidence in words and a what-if computed from the trace's own evidence.
// They run before copy_cast_dominant, which then counts only the copies none of them explains.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/findings_context.h"
#include "analysis/op_calls.h"

namespace cuprobe {

// Every pattern finding, in findings.cpp's order of assembly.
void add_pattern_findings(FindingsContext& ctx);

// The GPU's idle gaps inside steps by cause (findings_step_gaps.cpp): sync_inside_step, host_work_in_step,
// allocation_churn, pageable_host_copy.
void add_step_gap_findings(FindingsContext& ctx);
// findings_cat_growth.cpp: cache_grown_by_cat.
void add_cat_growth_finding(FindingsContext& ctx);
// findings_weight_cast.cpp: weight_cast_per_forward.
void add_weight_cast_finding(FindingsContext& ctx, const OperatorCalls& calls);
// findings_attention_math.cpp: attention_math_path.
void add_attention_math_finding(FindingsContext& ctx);
// findings_fp32_matmul.cpp: fp32_matmul.
void add_fp32_matmul_finding(FindingsContext& ctx);
// findings_kv_repeat.cpp: kv_heads_repeated.
void add_kv_repeat_finding(FindingsContext& ctx, const OperatorCalls& calls);
// findings_unfused_chain.cpp: unfused_elementwise.
void add_unfused_chain_finding(FindingsContext& ctx);
// findings_expert_loop.cpp: moe_expert_loop.
void add_expert_loop_finding(FindingsContext& ctx, const OperatorCalls& calls);
// findings_unused_logits.cpp: logits_all_positions.
void add_unused_logits_finding(FindingsContext& ctx, const OperatorCalls& calls);

// Fills the what-if of a pattern finding that saves `saved_ms` per step (its claim is set by the caller), and
// pushes it when the saving is at least thresholds::kPatternMinStepShare of the step. Returns whether it was kept.
bool push_pattern(FindingsContext& ctx, Finding f, double saved_ms, const std::string& fix);

// A kernel activity's GPU time in ms.
double activity_ms(const Profile& profile, std::size_t i);

// The counted kernels (FindingsContext::counted) in start order: the GPU's sequence the kernel patterns read.
std::vector<std::size_t> counted_kernels(const FindingsContext& ctx);

// The memory bandwidth a plain copy reaches on this GPU (bytes/s: thresholds::kCopyBandwidthShare of the peak), or
// none without the GPU's peaks.
std::optional<double> copy_bandwidth(const FindingsContext& ctx);

// Operator name helpers: a GEMM operator (linear, matmul, mm, addmm, bmm, baddbmm), a dtype cast (to, _to_copy,
// type_as, float, half, bfloat16), an attention operator (scaled_dot_product_attention and its backends).
bool gemm_op(std::string_view op);
bool cast_op(std::string_view op);
bool attention_op(std::string_view op);

}  // namespace cuprobe
