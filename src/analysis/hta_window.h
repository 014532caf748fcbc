// The part of a trace that Holistic Trace Analysis's tables cover by default
// (include_last_profiler_step=False: the last ProfilerStep is left out), so that
// the tables named after HTA give HTA's figures (docs/analyze-tables.md "Window").
#pragma once

#include <optional>

#include "analysis/analysis_result.h"
#include "analysis/launch_links.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// A profile cut to HTA's window, with the step of each activity kept.
struct HtaWindowed {
  Profile profile;  // devices, strings, the kept CPU ranges and GPU activities (nothing else)
  StepAssignment steps;
};

// HTA's Trace._filter_irrelevant_gpu_kernels: with two or more distinct names containing "ProfilerStep", the CPU
// ranges that start before the last such range starts, and the GPU activities launched by one of them.
// std::nullopt when nothing is cut (fewer than two step names, or HtaWindow::kAll); info says which.
std::optional<HtaWindowed> hta_window(const Profile& profile, const LaunchLinks& links, const StepAssignment& steps,
                                      HtaWindow window, HtaWindowInfo& info);

}  // namespace cuprobe
