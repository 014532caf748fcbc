// clock_alignment: ranks' clocks lined up on their collectives. The n-th call
// of the same collective on the same communicator (CollectiveMatching below)
// on every rank that takes part is one call; its end is nearly the same
// instant on all of them (none can leave before the last one arrived and the
// data went round), so a rank's offset from the reference (the first rank) is
// the median over matched calls of end_rank - end_reference. A rank that shares
// no call with the reference (a data-parallel peer in another tensor-parallel
// group) is aligned through a rank already aligned that it shares calls with.
// Ranks that share one clock get offsets near 0; hosts with their own clocks
// get theirs. A rank reached by no matched call keeps offset 0 (unaligned).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "analysis/rank_summary.h"

namespace cuprobe {

// How calls are matched across ranks.
enum class CollectiveMatching : std::uint8_t {
  // Every rank's every call names its communicator (torch's process group): the n-th call of a kernel name on a
  // communicator, among the ranks that have that communicator (a tensor-parallel pair, a data-parallel group).
  kCommunicator,
  // Some call names none (older traces, nsys, run files, rank-summary/1 files): the n-th call of a kernel name on the
  // same communication stream order, on every rank (keys missing on a rank are left out).
  kStreamOrder,
};

CollectiveMatching collective_matching(const std::vector<const RankSummary*>& ranks);
std::string_view collective_matching_name(CollectiveMatching m);  // "communicator", "stream order"

inline constexpr std::size_t kNotInCall = std::numeric_limits<std::size_t>::max();

// One collective call as every rank that takes part made it.
struct MatchedCollective {
  std::size_t first = 0;           // the first rank (position) that takes part
  std::uint32_t key = 0;           // its RankSummary::keys index for the call
  std::size_t n = 0;               // the n-th call of that collective, from 0
  std::vector<std::size_t> calls;  // per rank: the RankSummary::calls index, kNotInCall where it takes no part
};

// Calls of collectives at least two ranks have (stream order: every rank), n-th with n-th (up to the fewest calls
// on any rank that takes part), in the start order of each call's first rank. Empty for fewer than two ranks.
std::vector<MatchedCollective> match_collectives(const std::vector<const RankSummary*>& ranks);

struct ClockAlignment {
  std::size_t reference = 0;      // the rank (position) whose clock the others are put on
  std::vector<TimeNs> offset_ns;  // per rank: its clock minus the reference's; subtract it to align
  // Per rank: how well the aligned ends agree, the median |end_rank - offset - aligned end of the other| (ns).
  std::vector<TimeNs> residual_ns;
  std::vector<bool> aligned;      // per rank: on the reference's clock (the reference, or reached by matched calls)
  std::size_t matched_calls = 0;  // the calls the offsets come from (0: not aligned, offsets 0)
  CollectiveMatching matching = CollectiveMatching::kStreamOrder;  // how they were matched
};

ClockAlignment align_clocks(const std::vector<const RankSummary*>& ranks,
                            const std::vector<MatchedCollective>& matched);

// The same from whole profiles (the ranks in order; `export --chrome` of several).
ClockAlignment align_profile_clocks(const std::vector<Profile>& ranks);

}  // namespace cuprobe
