// clock_alignment: ranks' clocks lined up on their collectives. The n-th call
// of the same collective (kernel name and communication stream order,
// collective_calls.h) on every rank is one call; its end is nearly the same
// instant on every rank that takes part (none can leave before the last one
// arrived and the data went round), so a rank's offset from the reference
// (the first rank) is the median over matched calls of end_rank - end_reference.
// Ranks that share one clock get offsets near 0; hosts with their own clocks
// get theirs. Without a collective on every rank the offsets are 0 (unaligned).
#pragma once

#include <cstddef>
#include <vector>

#include "analysis/rank_summary.h"

namespace cuprobe {

// One collective call as every rank made it.
struct MatchedCollective {
  std::uint32_t key = 0;           // the reference rank's RankSummary::keys index
  std::size_t n = 0;               // its n-th call of that key, from 0
  std::vector<std::size_t> calls;  // per rank: the RankSummary::calls index
};

// Calls of keys every rank has, n-th with n-th (up to the fewest calls of that key on any rank), in the reference
// rank's start order. Empty for fewer than two ranks.
std::vector<MatchedCollective> match_collectives(const std::vector<const RankSummary*>& ranks);

struct ClockAlignment {
  std::size_t reference = 0;      // the rank (position) whose clock the others are put on
  std::vector<TimeNs> offset_ns;  // per rank: its clock minus the reference's; subtract it to align
  // Per rank: how well the aligned ends agree, the median |end_rank - offset - end_reference| (ns).
  std::vector<TimeNs> residual_ns;
  std::size_t matched_calls = 0;  // the calls the offsets come from (0: not aligned, offsets 0)
};

ClockAlignment align_clocks(const std::vector<const RankSummary*>& ranks,
                            const std::vector<MatchedCollective>& matched);

// The same from whole profiles (the ranks in order; `export --chrome` of several).
ClockAlignment align_profile_clocks(const std::vector<Profile>& ranks);

}  // namespace cuprobe
