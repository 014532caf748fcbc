// Idle time by cause on each stream, as Holistic Trace Analysis defines it
// (get_idle_time_breakdown; docs/analyze-tables.md "Idle time by cause").
#pragma once

#include "analysis/launch_links.h"
#include "analysis/step_detection.h"
#include "analysis/trace_tables.h"
#include "model/profile.h"

namespace cuprobe {

// HTA's default consecutive_kernel_delay: 30 in the trace's units, microseconds in a Kineto trace
// (HTA keeps Kineto's µs timestamps; its docstring says nanoseconds).
inline constexpr double kKernelWaitThresholdUs = 30;

IdleBreakdown idle_by_stream(const Profile& profile, const LaunchLinks& links, const StepAssignment& steps);

}  // namespace cuprobe
