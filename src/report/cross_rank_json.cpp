#include "report/cross_rank_json.h"

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
  for (const CrossRankRow& r : t.ranks) {
    ranks.push_back({{"rank", rank_or_null(r.rank)},
                     {"file", r.file},
                     {"step_ms", r.step_ms},
                     {"steps", r.steps},
                     {"busy_share", r.busy_share},
                     {"communication_share", r.communication_share},
                     {"wait_ms", r.wait_ms},
                     {"wait_share", r.wait_share},
                     {"clock_offset_ms", r.clock_offset_ms},
                     {"clock_residual_us", r.clock_residual_us},
                     {"clock_aligned", r.clock_aligned},
                     {"last_arrivals", r.last_arrivals},
                     {"late_ms", r.late_ms}});
  }
  json calls = json::array();
  for (const CollectiveRow& c : t.calls) {
    calls.push_back({{"name", c.name},
                     {"communicator", c.communicator.empty() ? json(nullptr) : json(c.communicator)},
                     {"stream_order", c.stream_order},
                     {"ranks", c.ranks},
                     {"call", c.call},
                     {"last_rank", rank_or_null(t.ranks[c.last].rank)},
                     {"late_ms", c.late_ms},
                     {"saving_ms", c.saving_ms},
                     {"others_wait_ms", c.others_wait_ms},
                     {"max_wait_ms", c.max_wait_ms}});
  }
  return {{"reference_rank", rank_or_null(t.reference_rank)},
          {"matched_calls", t.matched_calls},
          {"matching", t.matching},
          {"aligned", t.matched_calls > 0},
          {"ranks", std::move(ranks)},
          {"calls", std::move(calls)},
          {"straggler", straggler_json(t)}};
}

}  // namespace cuprobe
