// straggler: the rank whose late arrivals at collectives hold every rank back
// the most per step (cross_rank_table.h's savings, step by step), what it ran
// instead in the intervals before its arrivals compared with the median rank
// (kernels by name, host gaps, copies), and the step were it to arrive with
// the median rank. docs/findings.md: straggler_rank.
#pragma once

#include <optional>
#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/clock_alignment.h"
#include "analysis/cross_rank.h"
#include "analysis/rank_summary.h"

namespace cuprobe {

// Fills table.straggler with the costliest rank (none where no rank's late arrivals cost a step anything) and
// returns its finding when its cost crosses thresholds::kStragglerMinShare of the step.
std::optional<Finding> find_straggler(const std::vector<const RankSummary*>& ranks,
                                      const std::vector<MatchedCollective>& matched, CrossRank& table);

}  // namespace cuprobe
