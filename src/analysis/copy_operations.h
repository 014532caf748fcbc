// Which operations issue a rank's copies and casts (copy_cast_dominant names them): for each copy/cast
// activity judged on, in this order of evidence,
//  1. its neighbours on the stream: a cast followed by pow/mean (or preceded by rsqrt) is RMSNorm's fp32
//     round trip (Hugging Face's LlamaRMSNorm: x.to(float32) ... .to(input dtype));
//  2. the outermost operator around its launch ("aten::to", "aten::cat", "aten::index_copy_");
//  3. its kernel's name (CatArrayBatchedCopy: cat; indexFunc: index_copy_/index_add_; direct_copy_kernel:
//     a dtype cast or copy), which graph replays and run files still have.
// Each operation's share of the copy/cast GPU time judged on, largest first.
#pragma once

#include <string>
#include <vector>

#include "analysis/kernel_taxonomy.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

struct CopyOperation {
  std::string operation;  // "RMSNorm's fp32 round trip", "cat", "aten::index_copy_", ...
  double time_ms = 0;
  double share = 0;  // of the copy/cast time judged on
};

std::vector<CopyOperation> copy_cast_operations(const Profile& profile, const std::vector<KernelClass>& classes,
                                                const StepAssignment& steps);

// "RMSNorm's fp32 round trip 55%, cat 30%, index_copy_/index_add_ 15%": the first `n`.
std::string copy_operations_text(const std::vector<CopyOperation>& operations, std::size_t n);

}  // namespace cuprobe
