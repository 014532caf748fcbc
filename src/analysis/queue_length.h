// Outstanding launches per stream over time, as Holistic Trace Analysis counts
// them (get_queue_length_summary; docs/analyze-tables.md "Queue length").
#pragma once

#include <vector>

#include "analysis/launch_links.h"
#include "analysis/trace_tables.h"
#include "model/profile.h"

namespace cuprobe {

// Streams whose activities have launch calls, by device then stream; empty without launch calls.
std::vector<QueueRow> queue_length(const Profile& profile, const LaunchLinks& links);

}  // namespace cuprobe
