// An Nsight Systems export holds every profiled process, and a process may
// drive several GPUs; cuprobe analyses one rank per timeline of one GPU. The
// export is cut into one Profile per (process, GPU) that ran GPU work. A
// runtime call goes with the GPU work it launched (correlation ids are per
// process), other CPU ranges to every rank of their process; ranges of a
// process without GPU work belong to no rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/nsys_sqlite/export_gpus.h"
#include "model/profile.h"

namespace cuprobe {

// gpu_pid[i]: the process of whole.gpu[i] (-1 unknown). Import statistics and
// metadata stay with the first rank (they describe the file). Every Profile
// returned is sorted by time.
std::vector<Profile> split_by_process_and_gpu(Profile whole, const std::vector<std::int64_t>& gpu_pid,
                                              const ExportGpus& gpus);

}  // namespace cuprobe
