// The rank of a trace from its file name when the trace does not say:
// "TP-3", "tp3", "rank3", "rank_3", "rank-3", "_rank_3" (case-insensitive).
#pragma once

#include <optional>
#include <string_view>

namespace cuprobe {

std::optional<int> rank_from_file_name(std::string_view path);

}  // namespace cuprobe
