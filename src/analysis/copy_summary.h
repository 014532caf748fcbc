// Copies by direction and memsets (nsys cuda_gpu_mem_time_sum and
// cuda_gpu_mem_size_sum): count, bytes, time and the rate they moved at
// (docs/analyze-tables.md "Copies by kind").
#pragma once

#include <vector>

#include "analysis/trace_tables.h"
#include "model/profile.h"

namespace cuprobe {

// Rows for the kinds that occur, by time, largest first.
std::vector<CopyRow> copy_summary(const Profile& profile);

}  // namespace cuprobe
