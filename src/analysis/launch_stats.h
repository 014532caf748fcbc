// Launch statistics per kernel name, as Holistic Trace Analysis defines them
// (get_cuda_kernel_launch_stats; docs/analyze-tables.md "Launch delays").
#pragma once

#include "analysis/launch_links.h"
#include "analysis/trace_tables.h"
#include "model/profile.h"

namespace cuprobe {

// HTA's default cutoffs (µs): a launch call longer than kLaunchCpuCutoffUs, a delay longer than
// kLaunchDelayCutoffUs is an outlier.
inline constexpr double kLaunchCpuCutoffUs = 50;
inline constexpr double kLaunchDelayCutoffUs = 100;

// Every activity with a launch call except the nodes of graph launches (one call starts many activities: only the
// first would have a launch delay).
LaunchStats launch_stats(const Profile& profile, const LaunchLinks& links);

}  // namespace cuprobe
