// The peers' first tables of a rank in `cuprobe analyze`'s text report: idle time
// by cause, launch delays, annotations, the API summary, copies by kind and
// queue length (analysis/trace_tables.h); tables with nothing to show are left out.
#pragma once

#include <string>

#include "analysis/analysis_result.h"

namespace cuprobe {

std::string trace_tables_text(const RankAnalysis& a, std::size_t top);

}  // namespace cuprobe
