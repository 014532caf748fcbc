// `cuprobe analyze` as a function: profiles in (one per rank), report out.
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "model/profile.h"

namespace cuprobe {

AnalyzeReport analyze_profiles(const std::vector<Profile>& profiles, const AnalyzeOptions& options);

}  // namespace cuprobe
