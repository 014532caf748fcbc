// Kineto numbers correlation and External ids per process, so a file holding
// several processes (traces merged into one) can repeat them. GPU rows carry a
// device, not a process: each device is given the process whose launches its
// unambiguous ids match most often, and every id is then renumbered per
// process, so a kernel links to its own process's launch and operator only.
// Each GPU activity is then given the process that launched it
// (GpuActivity::pid), which split_by_process cuts the file into ranks by.
#pragma once

#include "model/profile.h"

namespace cuprobe {

// Costs one pass over the CPU ranges and one over the GPU activities when one process made every runtime call.
void link_ids_per_process(Profile& profile);

}  // namespace cuprobe
