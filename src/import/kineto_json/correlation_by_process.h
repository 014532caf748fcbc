// Kineto numbers correlation and External ids per process, so a file holding
// several processes (traces merged into one) can repeat them. GPU rows carry a
// device, not a process: each device is given the process whose launches its
// unambiguous ids match most often, and every id is then renumbered per
// process, so a kernel links to its own process's launch and operator only.
#pragma once

#include "model/profile.h"

namespace cuprobe {

// Does nothing (and costs one pass over the CPU ranges) when one process made every runtime call.
void link_ids_per_process(Profile& profile);

}  // namespace cuprobe
