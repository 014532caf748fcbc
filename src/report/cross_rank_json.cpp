#include "report/cross_rank_json.h"

#include "report/cross_rank_columns.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

json rank_or_null(const std::optional<int>& rank) { return rank ? json(*rank) : json(nullptr); }

json straggler_json(const CrossRank& t) {
  if (!t.straggler) return nullptr;
  const StragglerAnalysis& s = *t.straggler;
  json kernels = json::array();
  for (const auto& [name, ms] : s.extra_kernels_ms) kernels.push_back({{"name", name}, {"extra_ms_per_step", ms}});
  return {{"rank", rank_or_null(s.rank)},
          {"last_arrivals", s.last_arrivals},
          {"late_calls", s.late_calls},
          {"late_median_ms", s.late_median_ms},
          {"cost_ms_per_step", s.cost_ms_per_step},
          {"step_ms_now", s.step_ms_now},
          {"step_ms_after", s.step_ms_after},
          {"extra_idle_ms_per_step", s.extra_idle_ms},
          {"extra_copy_ms_per_step", s.extra_copy_ms},
          {"extra_kernels", std::move(kernels)}};
}

}  // namespace

json cross_rank_json(const CrossRank& t) {
  json ranks = json::array();
  for (std::size_t r = 0; r < t.ranks.size(); ++r)
    ranks.push_back(json_row(cross_rank_columns(), CrossRankTableRow{t.ranks[r], r}));
  json calls = json::array();
  for (const CollectiveRow& c : t.calls) calls.push_back(json_row(collective_columns(), CollectiveTableRow{c, t}));
  return {{"reference_rank", rank_or_null(t.reference_rank)},
          {"matched_calls", t.matched_calls},
          {"matching", t.matching},
          {"aligned", t.matched_calls > 0},
          {"ranks", std::move(ranks)},
          {"calls", std::move(calls)},
          {"straggler", straggler_json(t)}};
}

}  // namespace cuprobe
