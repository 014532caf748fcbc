// collective_wait: the same collective far longer on one rank than on its
// peers. A collective ends together on every rank, so the extra time on one
// rank is time it waited for a late peer (skew, a straggler), not bandwidth.
// Calls are matched across ranks as the cross-rank table matches them
// (clock_alignment.h: per communicator where the traces name it).
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/rank_summary.h"

namespace cuprobe {

struct RankInput {
  const RankSummary* summary;  // its collective calls (rank_summary.h)
  RankAnalysis* analysis;
};

// Adds a collective_wait finding to each rank that waited; needs >= 2 ranks.
void add_collective_wait_findings(const std::vector<RankInput>& ranks);

}  // namespace cuprobe
