// Time by category and by kernel for one profile.
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// The class of every GPU activity (memcpy/memset by kind, kernels by name).
std::vector<KernelClass> classify_activities(const Profile& profile);

// Fills categories, kernels, tensor_core_share and unknown_kernels of `out`
// (gpu_busy_ms must already be set).
void compute_breakdown(const Profile& profile, const std::vector<KernelClass>& classes,
                       const StepAssignment& steps, RankAnalysis& out);

}  // namespace cuprobe
