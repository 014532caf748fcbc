#include "analysis/step_outliers.h"

#include <algorithm>
#include <cmath>

#include "common/percentile.h"

namespace cuprobe {

void mark_typical_and_outliers(StepSummary& summary) {
  auto& steps = summary.steps;
  summary.typical_step.reset();
  summary.slowest_step.reset();
  summary.kinds.clear();
  const double median_ns = summary.median_ms * 1e6;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].activities == 0) continue;
    auto off = [&](std::size_t k) { return std::fabs(static_cast<double>(steps[k].time) - median_ns); };
    if (!summary.typical_step || off(i) < off(*summary.typical_step)) summary.typical_step = i;
    if (!summary.slowest_step || steps[i].time > steps[*summary.slowest_step].time) summary.slowest_step = i;
  }
  for (const Step& s : steps) {
    if (s.activities == 0) continue;
    auto it = std::find_if(summary.kinds.begin(), summary.kinds.end(),
                           [&](const StepKindSummary& k) { return k.kind == s.kind; });
    if (it == summary.kinds.end()) summary.kinds.push_back({s.kind, 0, 0, 0, 0});
  }
  for (StepKindSummary& k : summary.kinds) {
    std::vector<double> ms;
    for (const Step& s : steps) {
      if (s.activities > 0 && s.kind == k.kind) ms.push_back(static_cast<double>(s.time) / 1e6);
    }
    k.steps = static_cast<std::int64_t>(ms.size());
    k.median_ms = percentile(ms, 50);
    std::vector<double> deviations;
    for (double v : ms) deviations.push_back(std::fabs(v - k.median_ms));
    double mad = percentile(std::move(deviations), 50);
    k.outlier_limit_ms = std::max(k.median_ms + kOutlierMads * mad, k.median_ms * kOutlierMinRatio);
    for (Step& s : steps) {
      if (s.activities == 0 || s.kind != k.kind) continue;
      s.outlier = static_cast<double>(s.time) / 1e6 > k.outlier_limit_ms;
      k.outliers += s.outlier ? 1 : 0;
    }
  }
}

}  // namespace cuprobe
