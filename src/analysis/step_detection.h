// Finds the steps of a trace (one decode/prefill iteration each) and places
// every GPU activity in a step through its launch's correlation id.
//  1. Annotations: a name given with --step-marker, else SGLang "step[...]",
//     vLLM "execute_...", torch "ProfilerStep#N", else any annotation whose
//     name contains "step" (e.g. "decode_step").
//  2. Without annotations: CUDA graph replays (step_detection_graphs.h).
//  3. Otherwise: the repeating kernel sequence (periodicity.h).
// Step time is measured on the GPU clock (Step::time; docs/findings.md "Steps").
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "model/profile.h"

namespace cuprobe {

struct StepAssignment {
  StepSummary summary;
  std::vector<int> activity_step;   // per Profile::gpu index; -1 = in no step
  std::int64_t placed_by_time = 0;  // activities without a launch record, placed by GPU time
};

StepAssignment detect_steps(const Profile& profile, const AnalyzeOptions& options);

// Fills the per-step GPU fields and the summary statistics from activity_step.
void finish_steps(const Profile& profile, StepAssignment& assignment);

std::string step_kind_from_name(std::string_view name);

}  // namespace cuprobe
