// A finding's numbers (Finding::numbers, `key = value` in JSON) said in words for
// the report's cards: "1.45 ms per step", "93% of the memory bandwidth peak".
// One table row per key analysis writes; a key the table lacks is shown as
// "key: value" and reported as unknown, so a test catches new keys.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis_result.h"

namespace cuprobe {

// One phrase per number, in the finding's order. `per_step`: the finding was judged on steps (else on the
// window), which decides the word for the time a share is of.
std::vector<std::string> evidence_words(const Finding& f, bool per_step);

// Whether evidence_words has words for `key` (gpuN_busy_share and gpuN_waiting_share for any N).
bool evidence_key_known(std::string_view key);

}  // namespace cuprobe
