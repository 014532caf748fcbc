// Small order statistics used by the analyses.
#pragma once

#include <vector>

namespace cuprobe {

// Linear-interpolated percentile (q in [0,1]) of values; 0 for an empty set.
double percentile(std::vector<double> values, double q);

}  // namespace cuprobe
