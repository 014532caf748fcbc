// The findings as the report's cards draw them: analyze's findings (finding_json)
// with the kernels under their table row names (the full name beside, for the
// hover), the numbers in words (finding_evidence.h) and the what-if in the words
// analyze's text uses (report/finding_what_if_text.h). Nothing is recomputed here.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/analysis_result.h"

namespace cuprobe {

// One card per finding, in analyze's order: finding_json's fields, and "kernels_shown": [{name, short}],
// "evidence": [phrase], "what_if_projection": "3.02 ms → 0.13 ms (-96%)" ("" without a projection).
nlohmann::ordered_json report_findings(const AnalyzeReport& report);

}  // namespace cuprobe
