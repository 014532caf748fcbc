// A Profile as a Chrome trace-event JSON file (chrome://tracing, Perfetto UI):
// GPU activities on one track per device and stream, NVTX and API ranges per
// process and thread, counter samples as counter tracks per device.
#pragma once

#include <ostream>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

// Timestamps are microseconds from the profile's earliest event; the absolute
// start (ns since the unix epoch) is in "otherData.base_time_ns".
void write_chrome_trace(const Profile& profile, std::ostream& out);

// Several ranks in one file (`export --chrome R0 R1 ...`): each rank one process (pid 1, 2, ... in the order
// given), its GPU streams and CPU threads as that process's threads, its counters as its counter tracks. Clocks
// are aligned as `analyze` aligns them: `offset_ns` (one per rank, analysis/clock_alignment.h; empty: none) is
// subtracted from each rank's own timestamps (Kineto's baseTimeNanoseconds applied, run files' CLOCK_REALTIME),
// then one origin, the earliest aligned event of any rank, from all. "otherData.ranks" lists pid, rank, file,
// source and clock_offset_ns of each.
void write_merged_chrome_trace(const std::vector<Profile>& ranks, std::ostream& out,
                               const std::vector<TimeNs>& offset_ns = {});

}  // namespace cuprobe
