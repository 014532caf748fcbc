// Which steps every view calls typical, slowest and outliers, decided once
// from the steps' times on the GPU clock (Step::time).
#pragma once

#include "analysis/analysis_result.h"

namespace cuprobe {

inline constexpr double kOutlierMads = 5;         // an outlier: above median + 5 MAD of its kind's steps,
inline constexpr double kOutlierMinRatio = 1.25;  // and at least 25% above their median

// Fills summary.typical_step, slowest_step, kinds and each step's outlier flag (median_ms already set).
void mark_typical_and_outliers(StepSummary& summary);

}  // namespace cuprobe
