// `cuprobe sample --live`: a compact per-GPU view of the latest sample, redrawn
// in place on a terminal (it starts by clearing the screen).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "collect/counters/device_sampler.h"

namespace cuprobe {

// `latest`: the last row of each GPU, by GPU; `rows` and `lost`: the counts so far.
std::string sample_live_view(const std::vector<std::string>& names, const std::map<int, CounterRow>& latest,
                             std::int64_t rows, std::int64_t lost);

}  // namespace cuprobe
