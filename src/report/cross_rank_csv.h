// The cross-rank table for `cuprobe analyze --csv DIR`: ranks.csv (a row per rank: shares, wait, clock offset)
// and collectives.csv (a row per matched collective call); docs/analyze.md.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analysis/cross_rank.h"

namespace cuprobe {

// (file name, CSV text) pairs.
std::vector<std::pair<std::string, std::string>> cross_rank_csv(const CrossRank& table);

}  // namespace cuprobe
