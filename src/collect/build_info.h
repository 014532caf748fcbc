// What this build of cuprobe can collect.
#pragma once

namespace cuprobe {

// True when built against CUPTI (CUDA toolkit >= 12.8 found at configure time).
bool built_with_cupti();

}  // namespace cuprobe
