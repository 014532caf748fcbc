// A Profile as a Chrome trace-event JSON file (chrome://tracing, Perfetto UI):
// GPU activities on one track per device and stream, NVTX and API ranges per
// process and thread, counter samples as counter tracks per device.
#pragma once

#include <ostream>

#include "model/profile.h"

namespace cuprobe {

// Timestamps are microseconds from the profile's earliest event; the absolute
// start (ns since the unix epoch) is in "otherData.base_time_ns".
void write_chrome_trace(const Profile& profile, std::ostream& out);

}  // namespace cuprobe
