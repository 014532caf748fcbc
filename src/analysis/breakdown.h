// Time by category and by kernel for one profile.
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// The class of every GPU activity: memcpy/memset/graph by kind, kernels by name, and
// kernels whose name no taxonomy row knows by the operator that launched them (the
// innermost operator or annotation around the launch call that the operator table
// knows; never through a graph launch, whose operator says nothing about its nodes).
std::vector<KernelClass> classify_activities(const Profile& profile);

// The fallback step alone: activities whose class is still undecided (kUnknown) take their
// launching operator's category where one is found.
void apply_launch_op_fallback(const Profile& profile, std::vector<KernelClass>& classes);

// Fills categories, kernels, tensor_core_share and unknown_kernels of `out`
// (gpu_busy_ms must already be set).
void compute_breakdown(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                       RankAnalysis& out);

}  // namespace cuprobe
