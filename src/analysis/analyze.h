// `cuprobe analyze` as a function: profiles in (one per rank), report out.
#pragma once

#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/rank_summary.h"
#include "model/profile.h"

namespace cuprobe {

AnalyzeReport analyze_profiles(const std::vector<Profile>& profiles, const AnalyzeOptions& options);

// The two halves of analyze_profiles, for callers that release each Profile once it is analysed (analyze over
// many ranks): one rank alone, and what the cross-rank part keeps of it (rank_summary.h).
struct RankResult {
  RankAnalysis analysis;
  RankSummary summary;
};
RankResult analyze_rank(const Profile& profile, const AnalyzeOptions& options);

// The ranks together (in rank order): collective waits, clocks aligned, the cross-rank table and straggler,
// then every rank's gains; each rank's findings carry its analysis.rank.
AnalyzeReport combine_ranks(std::vector<RankResult> ranks);

}  // namespace cuprobe
