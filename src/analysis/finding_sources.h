// Where in the user's code each finding's kernels were launched: for every launch call, the innermost
// frame of the user's Python code (torch.profiler with_stack=True keeps them as python_function
// events; the importer keeps only the user's, model/python_frame.h) enclosing it on its thread; a
// finding's sources are those frames weighted by the GPU time of the activities it claims (else of its
// kernels), and, for gpu_idle, by the time of the synchronizing calls (docs/findings.md "Where in the code").
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

struct LaunchSources {
  std::vector<StringId> of_activity;  // per profile.gpu index: the frame's name, kNoString for none
  // Synchronizing calls inside a user frame: the frame's name and the call's time (ms).
  std::vector<std::pair<StringId, double>> synchronizes;
  bool any = false;  // some activity has a frame
};

LaunchSources launch_sources(const Profile& profile);

// At most `n` lines, most time first, from (activity or call) frames and their times.
std::vector<SourceLine> rank_sources(const Profile& profile, const std::vector<std::pair<StringId, double>>& timed,
                                     std::size_t n);

// Fills Finding::sources for every finding of the rank.
void add_finding_sources(const Profile& profile, const StepAssignment& steps, std::vector<Finding>& findings);

}  // namespace cuprobe
