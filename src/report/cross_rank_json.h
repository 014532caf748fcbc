// The cross-rank table in `cuprobe analyze --json` (schema cuprobe.analyze/1, key "cross_rank";
// docs/analyze-json.md): clocks, ranks, collective calls, straggler.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/cross_rank.h"

namespace cuprobe {

nlohmann::ordered_json cross_rank_json(const CrossRank& table);

}  // namespace cuprobe
