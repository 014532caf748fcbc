// A file recorded from a distributed job holds every rank: a run file from
// `record` of torchrun, or a Kineto trace of several processes (traces merged
// into one; Kineto's importer gives each GPU activity its launching process).
// Each process with GPU activity becomes its own Profile, ranked as the
// process's RANK said, else in pid order. A process driving several GPUs stays
// one rank (analysis/device_usage.h gives its per-device figures).
#pragma once

#include <vector>

#include "model/profile.h"

namespace cuprobe {

// A profile whose GPU activity comes from fewer than two processes is returned
// as it is (ranked, if its process said its rank).
std::vector<Profile> split_by_process(Profile p);

}  // namespace cuprobe
