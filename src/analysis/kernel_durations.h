// The spread of each kernel's call durations (nsys cuda_gpu_kern_sum, HTA's
// kernel breakdown): min, median, p90, max and population standard deviation.
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "model/profile.h"

namespace cuprobe {

// Fills min_us, median_us, p90_us, max_us and std_us of each row from the activities of its name.
void fill_kernel_durations(const Profile& profile, std::vector<KernelRow>& rows);

}  // namespace cuprobe
