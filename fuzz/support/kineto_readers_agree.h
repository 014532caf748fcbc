// The two readers of Kineto's traceEvents (kineto_importer.h: the JSON cursor, the default, and
// simdjson over bounded windows where built; the fuzz targets' load_profile reads with the
// default, so this is how they reach the simdjson path) must agree on any text: the same Profile (compared by its
// events, activities, ranges and counted stats) or the same one-line InputError. The one known
// difference is left out: nesting deeper than the cursor's 512 levels inside a value the importer
// skips (the cursor refuses it, simdjson's skip counts brackets without a limit).
#pragma once

#include <string_view>

namespace cuprobe::fuzz {

void kineto_readers_agree(std::string_view text);

}  // namespace cuprobe::fuzz
