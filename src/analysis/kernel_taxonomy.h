// What a GPU kernel is, from its name alone: a category, whether it runs on
// tensor cores, and its precision. The rules are one ordered data table
// (docs/kernel-taxonomy.md explains it and how to add a row).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace cuprobe {

// Names are written in JSON and stored reports: never rename one, only add.
enum class Category {
  kGemm,
  kAttention,
  kMoe,
  kCommunication,
  kCopyCast,
  kElementwise,
  kNorm,
  kReduction,
  kSampling,
  kMemcpy,
  kMemset,
  kCudaGraph,
  kConv,
  kEmbedding,
  kOptimizer,
  kOther
};
inline constexpr int kCategoryCount = 16;

// "gemm", "attention", "moe", "communication", "copy_cast", "elementwise", "norm",
// "reduction", "sampling", "memcpy", "memset", "cuda_graph" (whole graph launches),
// "conv", "embedding", "optimizer", "other"
std::string_view category_name(Category c);
std::optional<Category> parse_category(std::string_view name);

enum class Precision { kFp4, kFp8, kBf16, kFp16, kTf32, kFp32, kInt8 };
std::string_view precision_name(Precision p);  // "fp4","fp8","bf16","fp16","tf32","fp32","int8"

// How an activity's category was decided: by its kernel name (a taxonomy row), by its
// activity kind (memcpy, memset, whole graph launch), by the operator that launched it
// (the name matched no row), or not at all ("other").
enum class CategorySource : std::uint8_t { kName, kKind, kLaunchOp, kUnknown };
inline constexpr int kCategorySourceCount = 4;
std::string_view category_source_name(CategorySource s);  // "name", "kind", "launch_op", "unknown"

struct KernelClass {
  Category category = Category::kOther;
  std::optional<bool> tensor_core;     // nullopt = unknown
  std::optional<Precision> precision;  // nullopt = unknown
  std::string_view rule;               // the table row's pattern that matched ("" for none)
  CategorySource decided_by = CategorySource::kUnknown;
};

// Classifies a GPU kernel by its (possibly demangled, very long templated) name.
// Memcpy/memset activities are NOT classified here (the caller uses their kind).
KernelClass classify_kernel(std::string_view kernel_name);

// The table's patterns in match order (what KernelClass::rule can be), for
// tests and listings.
std::vector<std::string_view> kernel_taxonomy_patterns();

}  // namespace cuprobe
