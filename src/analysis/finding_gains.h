// Savings that add up: the findings of a rank claim the time their fixes would
// remove (Finding::claim); each microsecond of the step gets one owner. Specific
// findings (naming kernels and a fix) claim before generic ones
// (low_tensor_core_share, gpu_idle); within each group the finding with the
// largest gain left claims next. A finding's gain is the time it owns, per step,
// never more than what the findings before it left of the step, so the gains
// of a rank sum to at most the step. Severity follows from the gain's share of
// the step (thresholds.h), so rank order and severity agree.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/analysis_result.h"
#include "model/profile.h"

namespace cuprobe {

// Sets gain, what_if.step_ms_after and severity of every finding of `analysis` (its steps and busy time give the
// step and its idle time), then ranks them.
void apportion_gains(const Profile& profile, RankAnalysis& analysis);
// The same, reading the claimed activities' durations (ms, by profile.gpu index) from `activity_ms` (the Profile
// may be gone: rank_summary.h keeps them).
void apportion_gains(const std::function<double(std::size_t)>& activity_ms, RankAnalysis& analysis);

// "high", "medium" or "low" for a gain of `gain_ms` in a step of `step_ms`.
std::string severity_for_gain(double gain_ms, double step_ms);

// Largest gain first; a specific finding before a generic one of the same gain; then the time explained
// (step_share), then id.
void rank_findings(std::vector<Finding>& findings);

}  // namespace cuprobe
