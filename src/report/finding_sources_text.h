// Where in the user's code a finding's kernels were launched, in words, the same in analyze's text and on the
// report page: "model.py:123 in forward (80%), model.py:140 in forward (20%)".
#pragma once

#include <string>

#include "analysis/analysis_result.h"

namespace cuprobe {

// "" without sources.
std::string finding_sources_text(const Finding& f);

}  // namespace cuprobe
