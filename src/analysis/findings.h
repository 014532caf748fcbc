// Per-rank findings: what explains the step time, in plain words, with the
// numbers behind it and a concrete suggestion. Thresholds: thresholds.h.
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/kernel_work.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// `analysis` must have its breakdown and steps filled. Adds to analysis.findings.
// Every finding carries a what-if (the step after the fix); `work` gives the bytes behind copy_cast_dominant's.
void add_rank_findings(const Profile& profile, const std::vector<KernelClass>& classes, const StepAssignment& steps,
                       const WorkAttribution& work, RankAnalysis& analysis);

// Largest what-if gain first (Finding::gain_ms); ties by step_share, severity, then id.
void rank_findings(std::vector<Finding>& findings);

std::string severity_for_share(double share, double medium, double high);

}  // namespace cuprobe
