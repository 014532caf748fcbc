// The cross-rank table of `analyze` as text (analysis/cross_rank.h): the
// clocks' alignment, a row per rank, the collective calls that made the others
// wait the longest, and the straggler.
#pragma once

#include <cstddef>
#include <string>

#include "analysis/cross_rank.h"

namespace cuprobe {

// `top_calls`: the collective calls listed (by the wait they caused the others).
std::string cross_rank_text(const CrossRank& table, std::size_t top_calls);

}  // namespace cuprobe
