#include "analysis/rank_summary.h"

#include <algorithm>

#include "analysis/collective_calls.h"

namespace cuprobe {

RankSummary summarize_rank(const Profile& profile, const std::vector<KernelClass>& classes,
                           const RankAnalysis& analysis) {
  RankSummary s;
  s.rank = analysis.rank;
  s.file = analysis.file;
  collect_collective_calls(profile, classes, s);
  summarize_before_arrivals(profile, classes, s);
  for (const Step& step : analysis.steps.steps) {
    if (step.time > 0) s.step_starts.push_back(step.gpu_start);
  }
  std::sort(s.step_starts.begin(), s.step_starts.end());
  s.window_ms = analysis.window_ms;
  s.step_ms = s.step_starts.empty() ? analysis.window_ms : analysis.steps.median_ms;
  s.gpu_busy_share = analysis.gpu_busy_share;
  s.gpu_time_ms = analysis.gpu_time_ms();
  for (const CategoryRow& c : analysis.categories) {
    if (c.category == Category::kCommunication) s.communication_ms = c.time_ms;
  }
  std::vector<std::size_t> kept;
  for (const CollectiveCall& c : s.calls) kept.push_back(c.activity);
  for (const Finding& f : analysis.findings) {
    for (const auto& [i, ms] : f.claim.activity_ms) kept.push_back(i);
  }
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  for (std::size_t i : kept) {
    if (i < profile.gpu.size()) s.activity_ms.emplace_back(i, static_cast<double>(profile.gpu[i].duration()) / 1e6);
  }
  return s;
}

double summary_activity_ms(const RankSummary& summary, std::size_t activity) {
  auto it = std::lower_bound(summary.activity_ms.begin(), summary.activity_ms.end(), activity,
                             [](const auto& entry, std::size_t i) { return entry.first < i; });
  return it != summary.activity_ms.end() && it->first == activity ? it->second : 0.0;
}

}  // namespace cuprobe
