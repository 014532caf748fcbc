// Per-rank findings: what explains the step time, in plain words, with the
// numbers behind it and a concrete suggestion. Thresholds: thresholds.h.
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// `analysis` must have its breakdown and steps filled. Adds to analysis.findings.
void add_rank_findings(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                       RankAnalysis& analysis);

// Highest step_share first; ties by severity then id.
void rank_findings(std::vector<Finding>& findings);

std::string severity_for_share(double share, double medium, double high);

}  // namespace cuprobe
