// Reads the SQLite file that Nsight Systems writes with `nsys export --type
// sqlite` (docs/nsys.md): CUDA kernels, memcpys and memsets, runtime and
// driver API calls (linked to what they launched by correlationId), NVTX
// ranges, and the GPUs. Names are ids into StringIds. Tolerant about columns
// (nsys versions differ; a missing optional one is counted), strict about
// structure: a file without StringIds is not an export.
#pragma once

#include <string>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

// One Profile per process and GPU that ran GPU work, as ranks 0..n-1 (ordered
// by GPU, then process); a single such pair gives one Profile with no rank.
// shown_as: the name for messages and Profile::file when `path` is a copy.
std::vector<Profile> import_nsys_sqlite(const std::string& path, const std::string& shown_as = {});

}  // namespace cuprobe
