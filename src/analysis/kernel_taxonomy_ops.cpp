// Operator rows for the launch-op fallback (user annotations only match rows marked so). "=name": the whole operator
// name; "name*": a prefix; otherwise a substring. Case-sensitive (operator names are identifiers). First match wins;
// exact names come first so that `aten::to` is not `aten::topk`.
#include "analysis/kernel_taxonomy_ops.h"

namespace cuprobe {
namespace {

using C = Category;

struct OpRow {
  std::string_view pattern;
  Category category;
  bool annotations = false;  // also matches user annotations (record_function ranges)
};

constexpr OpRow kOpRows[] = {
    // Copies, casts and data movement (exact: "aten::to" must not take "aten::topk").
    {"=aten::to", C::kCopyCast},
    {"=aten::_to_copy", C::kCopyCast},
    {"=aten::copy_", C::kCopyCast},
    {"=aten::clone", C::kCopyCast},
    {"=aten::contiguous", C::kCopyCast},
    {"=aten::cat", C::kCopyCast},
    {"=aten::stack", C::kCopyCast},
    {"=aten::index", C::kCopyCast},
    {"=aten::index_select", C::kCopyCast},
    {"=aten::gather", C::kCopyCast},
    {"aten::index_put", C::kCopyCast},
    {"aten::scatter", C::kCopyCast},
    {"=aten::repeat", C::kCopyCast},
    {"=aten::flip", C::kCopyCast},
    {"=aten::roll", C::kCopyCast},

    // Matrix multiplies.
    {"=aten::mm", C::kGemm},
    {"=aten::matmul", C::kGemm},
    {"=aten::linear", C::kGemm},
    {"=aten::addmm", C::kGemm},
    {"=aten::_addmm_activation", C::kGemm},
    {"=aten::bmm", C::kGemm},
    {"=aten::baddbmm", C::kGemm},
    {"=aten::addbmm", C::kGemm},
    {"=aten::mv", C::kGemm},
    {"=aten::addmv", C::kGemm},
    {"=aten::dot", C::kGemm},
    {"=aten::_scaled_mm", C::kGemm},
    {"=aten::_int_mm", C::kGemm},
    {"=aten::_grouped_mm", C::kGemm},

    // Convolutions (aten::convolution, aten::_convolution, aten::cudnn_convolution,
    // aten::miopen_depthwise_convolution, aten::convolution_backward, ...).
    {"convolution", C::kConv},
    {"=aten::conv1d", C::kConv},
    {"=aten::conv2d", C::kConv},
    {"=aten::conv3d", C::kConv},
    {"aten::conv_transpose", C::kConv},
    {"aten::_slow_conv2d", C::kConv},
    {"aten::slow_conv", C::kConv},
    {"aten::_conv_depthwise2d", C::kConv},
    {"aten::conv_depthwise3d", C::kConv},

    // Norms (aten::batch_norm, aten::cudnn_batch_norm, aten::native_layer_norm_backward, ...).
    {"batch_norm", C::kNorm},
    {"layer_norm", C::kNorm},
    {"group_norm", C::kNorm},
    {"instance_norm", C::kNorm},
    {"rms_norm", C::kNorm},

    // Embeddings: ATen and FBGEMM operators.
    {"embedding", C::kEmbedding},
    {"fbgemm::", C::kEmbedding},

    // Optimizers: foreach and fused optimizer kernels.
    {"aten::_foreach_", C::kOptimizer},
    {"aten::_fused_adam", C::kOptimizer},
    {"aten::_fused_sgd", C::kOptimizer},
    {"aten::_fused_adagrad", C::kOptimizer},
    {"Optimizer.step", C::kOptimizer, true},  // Optimizer.step#AdamW.step (an annotation)

    // Attention.
    {"attention", C::kAttention},

    // Collectives.
    {"c10d::", C::kCommunication},
    {"_c10d_functional::", C::kCommunication},
    {"nccl:", C::kCommunication, true},
    {"=record_param_comms", C::kCommunication},

    // Reductions, softmax, selection, losses, pooling.
    {"=aten::sum", C::kReduction},
    {"=aten::mean", C::kReduction},
    {"=aten::max", C::kReduction},
    {"=aten::min", C::kReduction},
    {"=aten::amax", C::kReduction},
    {"=aten::amin", C::kReduction},
    {"=aten::prod", C::kReduction},
    {"=aten::any", C::kReduction},
    {"=aten::all", C::kReduction},
    {"=aten::var", C::kReduction},
    {"=aten::var_mean", C::kReduction},
    {"=aten::std", C::kReduction},
    {"=aten::norm", C::kReduction},
    {"=aten::linalg_vector_norm", C::kReduction},
    {"=aten::cumsum", C::kReduction},
    {"softmax", C::kReduction},
    {"=aten::topk", C::kReduction},
    {"=aten::sort", C::kReduction},
    {"=aten::argsort", C::kReduction},
    {"aten::nll_loss", C::kReduction},
    {"aten::cross_entropy", C::kReduction},
    {"pool", C::kReduction},

    // Sampling.
    {"=aten::multinomial", C::kSampling},
    {"=aten::argmax", C::kSampling},

    // Pointwise.
    {"=aten::add", C::kElementwise},
    {"=aten::add_", C::kElementwise},
    {"=aten::sub", C::kElementwise},
    {"=aten::sub_", C::kElementwise},
    {"=aten::mul", C::kElementwise},
    {"=aten::mul_", C::kElementwise},
    {"=aten::div", C::kElementwise},
    {"=aten::div_", C::kElementwise},
    {"=aten::where", C::kElementwise},
    {"=aten::fill_", C::kElementwise},
    {"=aten::zero_", C::kElementwise},
    {"=aten::pow", C::kElementwise},
    {"=aten::rsqrt", C::kElementwise},
    {"=aten::exp", C::kElementwise},
    {"=aten::silu", C::kElementwise},
    {"=aten::gelu", C::kElementwise},
    {"=aten::relu", C::kElementwise},
    {"=aten::relu_", C::kElementwise},
    {"=aten::sigmoid", C::kElementwise},
    {"=aten::tanh", C::kElementwise},
    {"=aten::neg", C::kElementwise},
    {"=aten::abs", C::kElementwise},
    {"=aten::sqrt", C::kElementwise},
    {"=aten::log", C::kElementwise},
    {"=aten::sin", C::kElementwise},
    {"=aten::cos", C::kElementwise},
    {"=aten::sign", C::kElementwise},
    {"=aten::erf", C::kElementwise},
    {"=aten::floor", C::kElementwise},
    {"=aten::ceil", C::kElementwise},
    {"=aten::round", C::kElementwise},
    {"=aten::reciprocal", C::kElementwise},
    {"=aten::remainder", C::kElementwise},
    {"=aten::minimum", C::kElementwise},
    {"=aten::maximum", C::kElementwise},
    {"=aten::rsub", C::kElementwise},
    {"=aten::eq", C::kElementwise},
    {"=aten::ne", C::kElementwise},
    {"=aten::lt", C::kElementwise},
    {"=aten::le", C::kElementwise},
    {"=aten::gt", C::kElementwise},
    {"=aten::ge", C::kElementwise},
    {"=aten::isin", C::kElementwise},
    {"=aten::arange", C::kElementwise},
    {"=aten::tril", C::kElementwise},
    {"=aten::triu", C::kElementwise},
    {"=aten::full", C::kElementwise},
    {"=aten::zeros", C::kElementwise},
    {"=aten::ones", C::kElementwise},
    {"aten::bitwise_*", C::kElementwise},
    {"aten::logical_*", C::kElementwise},
    {"aten::clamp*", C::kElementwise},  // clamp_, clamp_min, clamp_max
    {"aten::addc*", C::kElementwise},   // addcmul(_), addcdiv(_)
    {"aten::lerp*", C::kElementwise},
    {"aten::masked_fill*", C::kElementwise},
    {"_backward", C::kElementwise},  // activation backward ops (threshold_backward, silu_backward, ...)
    {"dropout", C::kElementwise},
    {"upsample", C::kElementwise},
};

bool row_matches(std::string_view pattern, std::string_view op) {
  if (pattern.starts_with('=')) return op == pattern.substr(1);
  if (pattern.ends_with('*')) return op.starts_with(pattern.substr(0, pattern.size() - 1));
  return op.find(pattern) != std::string_view::npos;
}

}  // namespace

std::optional<OperatorClass> classify_operator(std::string_view op_name, bool is_operator) {
  for (const OpRow& row : kOpRows) {
    if ((is_operator || row.annotations) && row_matches(row.pattern, op_name)) {
      return OperatorClass{row.category, row.pattern};
    }
  }
  if (!is_operator) return std::nullopt;
  KernelClass k = classify_kernel(op_name);
  if (k.category == Category::kOther || k.category == Category::kMemcpy || k.category == Category::kMemset) {
    return std::nullopt;
  }
  return OperatorClass{k.category, k.rule};
}

std::vector<std::string_view> operator_taxonomy_patterns() {
  std::vector<std::string_view> out;
  for (const OpRow& row : kOpRows) out.push_back(row.pattern);
  return out;
}

}  // namespace cuprobe
