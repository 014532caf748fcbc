// One run file recorded from a distributed job (torchrun, one process per GPU)
// holds every rank: each process with GPU activity becomes its own Profile,
// ranked as the process's RANK said, else in pid order.
#pragma once

#include <vector>

#include "model/profile.h"

namespace cuprobe {

// A profile whose GPU activity comes from fewer than two processes is returned
// as it is (ranked, if its process said its rank).
std::vector<Profile> split_by_process(Profile p);

}  // namespace cuprobe
