// cross_rank_table: per rank its step, busy, communication and wait shares
// and clock offset; per matched collective call (aligned clocks) the last rank
// to arrive and the wait it caused the others (analysis/cross_rank.h).
#pragma once

#include <vector>

#include "analysis/clock_alignment.h"
#include "analysis/cross_rank.h"
#include "analysis/rank_summary.h"

namespace cuprobe {

CrossRank cross_rank_table(const std::vector<const RankSummary*>& ranks, const std::vector<MatchedCollective>& matched,
                           const ClockAlignment& clocks);

}  // namespace cuprobe
