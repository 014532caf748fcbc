// How categories overlap in time: communication beside compute, copies beside
// compute (HTA's "computation overlapping communication"), over the window and
// per step. Shares of the categories add up to 100% of the summed activity
// time; these figures say how much of it ran at the same time as other work.
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// Fills out.overlap and each step's comm_ns, comm_overlapped_ns, copy_ns and copy_overlapped_ns.
// Intervals are joined per GPU: communication on one GPU beside compute on another does not overlap.
void fill_category_overlap(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                           RankAnalysis& out);

}  // namespace cuprobe
