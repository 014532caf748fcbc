// The figures at the top of the report, each read from analyze's results (or the
// bench result) and written in the words and formats the CLI prints: per rank the
// step time (median, the typical step's), GPU busy, the tensor-core share; the top
// finding and its what-if; a bench run's throughput, latency percentiles, peak in
// flight and steady window. Figures are {key, label, value, note}; values are text.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/analysis_result.h"

namespace cuprobe {

// report: analyze's results, or nullptr for a page without traces; bench: bench_view(), or null.
// {"ranks": [{"rank", "label", "figures": [...]}], "top_finding": {...} or null (the first finding whose what-if
// saves something), "findings_without_saving": true when findings exist but none saves anything, "bench": [...] or
// null}
nlohmann::ordered_json report_headline(const AnalyzeReport* report, const nlohmann::ordered_json& bench);

}  // namespace cuprobe
