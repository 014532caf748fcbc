// The category a framework operator's GPU work belongs to, for kernels whose own name
// the taxonomy does not know (the launch-op fallback). Data in kernel_taxonomy_ops.cpp;
// docs/kernel-taxonomy.md describes it.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "analysis/kernel_taxonomy.h"

namespace cuprobe {

struct OperatorClass {
  Category category = Category::kOther;
  std::string_view rule;  // the operator table's pattern, or the kernel table's row
};

// `aten::batch_norm` -> norm, `aten::cudnn_convolution` -> conv, `aten::to` -> copy_cast, ...
// Operators the table does not list are then read as kernel names (custom ops such as
// `_C::rms_norm` or `vllm::unified_attention`). A user annotation (`is_operator` false) is
// free text: only the few rows meant for annotations (`Optimizer.step#...`) match it.
// nullopt when nothing says anything.
std::optional<OperatorClass> classify_operator(std::string_view op_name, bool is_operator = true);

// The operator table's patterns in match order, for tests.
std::vector<std::string_view> operator_taxonomy_patterns();

}  // namespace cuprobe
