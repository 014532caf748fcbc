// Test cases for the kernel taxonomy: a real kernel name and what it must classify as.
// The core families live in kernel_taxonomy_test.cpp, AMD, training and vision
// families in kernel_taxonomy_families_test.cpp, other engines' families (llama.cpp, ...) in
// kernel_taxonomy_engines_test.cpp; every table row needs one.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "analysis/kernel_taxonomy.h"

namespace cuprobe::taxonomy_test {

struct Case {
  std::string_view name;
  Category category;
  std::optional<bool> tensor_core;
  std::optional<Precision> precision;
  std::string_view rule;
};

inline constexpr std::optional<bool> kTc = true;
inline constexpr std::optional<bool> kNoTc = false;
inline constexpr std::optional<bool> kTcUnknown = std::nullopt;
inline constexpr std::optional<Precision> kAnyPrecisionUnknown = std::nullopt;

// AMD (Tensile/hipBLASLt, rocBLAS, Composable Kernel, aiter, MIOpen, RCCL, ROCclr, Triton
// on ROCm), training and vision (cuDNN, CUTLASS conv, ATen batch norm, optimizers,
// FBGEMM, pooling) kernels.
const std::vector<Case>& family_cases();

// Families of engines outside PyTorch's kernels (llama.cpp/ggml on CUDA and HIP, hand-written
// HIP engines, nano-vLLM's Triton kernels), FlashAttention-3's scheduler, MSCCL, rocPRIM.
const std::vector<Case>& engine_cases();

}  // namespace cuprobe::taxonomy_test
