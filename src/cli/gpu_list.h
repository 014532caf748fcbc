// The --gpu argument shared by the verbs that sample counters: "all" or CUDA
// ordinals "0,1". Throws cuprobe::Error (exit 2) on anything else.
#pragma once

#include <string>
#include <vector>

namespace cuprobe {

// Empty result = all GPUs (SamplerConfig::gpus convention).
// `option` names the flag in the error message.
std::vector<int> parse_gpu_list(const std::string& text, const std::string& option = "--gpu");

}  // namespace cuprobe
