// GPU time per user annotation (record_function, NVTX or ROCTx range): the activities
// launched inside each range (nsys nvtx_kern_sum; HTA's gpu_user_annotation
// spans; docs/analyze-tables.md "Annotations").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/launch_links.h"
#include "analysis/step_detection.h"
#include "analysis/trace_tables.h"
#include "model/profile.h"

namespace cuprobe {

// The row an annotation's name falls in: a trailing "#<digits>" (ProfilerStep#12) becomes "#N".
std::string annotation_row_name(std::string_view name);

// A launch call belongs to the annotations on its thread that contain it. gpu_time_ms: what shares are of (the
// rank's summed activity time, so that no share exceeds 100%).
std::vector<AnnotationRow> annotation_time(const Profile& profile, const LaunchLinks& links,
                                           const StepAssignment& steps, double gpu_time_ms);

}  // namespace cuprobe
