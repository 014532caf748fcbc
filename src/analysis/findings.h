// Per-rank findings: what explains the step time, in plain words, with the
// numbers behind it and a concrete suggestion. Thresholds: thresholds.h.
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/kernel_work.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// `analysis` must have its breakdown and steps filled. Adds to analysis.findings, judged on the GPU time in steps
// (the whole window without steps). Every finding carries a what-if (the step were it fixed alone) and a claim;
// gains, severity and order come from apportion_gains (finding_gains.h) once every finding is in.
// `work` gives the bytes behind copy_cast_dominant's.
void add_rank_findings(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                       const WorkAttribution& work, RankAnalysis& analysis);

}  // namespace cuprobe
