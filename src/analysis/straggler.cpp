#include "analysis/straggler.h"

#include <algorithm>
#include <map>
#include <string>

#include "analysis/thresholds.h"
#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {
namespace {

constexpr std::size_t kKernelsNamed = 3;  // extra kernels named in the finding
constexpr double kExplainsShare = 0.05;   // of the cost per step: less explains nothing of it

double per_step_divisor(const RankSummary& s) {
  return s.step_starts.empty() ? 1.0 : static_cast<double>(s.step_starts.size());
}

// The savings of the calls rank r arrived last at, summed per step of r (the whole trace without steps); calls
// before its first step (warm-up) are left out. The median over its steps.
double cost_per_step(const RankSummary& s, std::size_t r, const std::vector<MatchedCollective>& matched,
                     const CrossRank& table) {
  std::size_t buckets = std::max<std::size_t>(1, s.step_starts.size());
  std::vector<double> per_step(buckets, 0.0);
  for (std::size_t k = 0; k < matched.size(); ++k) {
    const CollectiveRow& c = table.calls[k];
    if (c.last != r || c.saving_ms <= 0) continue;
    if (s.step_starts.empty()) {
      per_step[0] += c.saving_ms;
      continue;
    }
    TimeNs start = s.calls[matched[k].calls[r]].start;
    auto it = std::upper_bound(s.step_starts.begin(), s.step_starts.end(), start);
    if (it == s.step_starts.begin()) continue;
    per_step[static_cast<std::size_t>(it - s.step_starts.begin()) - 1] += c.saving_ms;
  }
  return lower_median(per_step);
}

// What the straggler ran before its arrivals, per step, against the median rank.
void compare_with_median(const std::vector<const RankSummary*>& ranks, StragglerAnalysis& out) {
  const RankSummary& s = *ranks[out.position];
  std::vector<std::map<std::string_view, double>> by_name(ranks.size());
  std::vector<double> idle, copy;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    double steps = per_step_divisor(*ranks[r]);
    for (const auto& [name, ms] : ranks[r]->before.kernel_ms) by_name[r][name] = ms / steps;
    idle.push_back(ranks[r]->before.idle_ms / steps);
    copy.push_back(ranks[r]->before.copy_ms / steps);
  }
  out.extra_idle_ms = s.before.idle_ms / per_step_divisor(s) - lower_median(idle);
  out.extra_copy_ms = s.before.copy_ms / per_step_divisor(s) - lower_median(copy);
  for (const auto& [name, ms] : s.before.kernel_ms) {
    std::vector<double> others;
    for (const auto& names : by_name) {
      auto it = names.find(name);
      others.push_back(it == names.end() ? 0.0 : it->second);
    }
    double extra = ms / per_step_divisor(s) - lower_median(std::move(others));
    if (extra > 0) out.extra_kernels_ms.emplace_back(name, extra);
  }
  std::stable_sort(out.extra_kernels_ms.begin(), out.extra_kernels_ms.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
}

std::string rank_name(const std::optional<int>& rank, std::size_t position) {
  return "rank " + std::to_string(rank.value_or(static_cast<int>(position)));
}

// "ran fused_moe 1.60 ms, gemm 0.2 ms longer per step than the median rank; the GPU idle 0.3 ms longer"
std::string instead_text(const StragglerAnalysis& s) {
  std::string kernels;
  double floor = kExplainsShare * s.cost_ms_per_step;
  for (std::size_t i = 0; i < s.extra_kernels_ms.size() && i < kKernelsNamed; ++i) {
    if (s.extra_kernels_ms[i].second < floor) break;
    kernels += (kernels.empty() ? "" : ", ") + s.extra_kernels_ms[i].first + " +" +
               format_duration_ms(s.extra_kernels_ms[i].second);
  }
  std::string parts;
  if (!kernels.empty()) parts = "kernels " + kernels;
  if (s.extra_idle_ms >= floor)
    parts += (parts.empty() ? "" : "; ") + std::string("GPU idle (host gaps) +") + format_duration_ms(s.extra_idle_ms);
  if (s.extra_copy_ms >= floor)
    parts += (parts.empty() ? "" : "; ") + std::string("copies +") + format_duration_ms(s.extra_copy_ms);
  if (parts.empty()) return "nothing before its arrivals stands out against the median rank";
  return "per step before its arrivals, against the median rank: " + parts;
}

Finding straggler_finding(const StragglerAnalysis& s, const RankSummary& summary) {
  Finding f;
  f.id = "straggler_rank";
  f.rank = s.rank;
  std::string who = rank_name(s.rank, s.position);
  f.title = who + " arrives last at " + std::to_string(s.late_calls) + " collective calls, typically " +
            format_duration_ms(s.late_median_ms) + " after the median rank: it costs every rank " +
            format_duration_ms(s.cost_ms_per_step) + " per step; " + instead_text(s);
  for (std::size_t i = 0; i < s.extra_kernels_ms.size() && i < kKernelsNamed; ++i) {
    if (s.extra_kernels_ms[i].second < kExplainsShare * s.cost_ms_per_step) break;
    f.kernels.push_back(s.extra_kernels_ms[i].first);
  }
  f.step_share = s.step_ms_now > 0 ? std::min(1.0, s.cost_ms_per_step / s.step_ms_now) : 0.0;
  f.share = summary.gpu_time_ms > 0
                ? std::min(1.0, s.cost_ms_per_step * per_step_divisor(summary) / summary.gpu_time_ms)
                : 0.0;
  f.suggestion =
      "Every rank waits for this one at its collectives. Look at what it runs before them that the others do not "
      "(the kernels named: uneven work such as more tokens or experts routed to it; host gaps: a slower host, "
      "data loading, Python work on that rank only; copies), balance the work, or pin it to a less loaded host.";
  f.numbers = {{"late_calls", static_cast<double>(s.late_calls)},
               {"late_median_ms", s.late_median_ms},
               {"cost_ms_per_step", s.cost_ms_per_step},
               {"extra_idle_ms_per_step", s.extra_idle_ms},
               {"extra_copy_ms_per_step", s.extra_copy_ms}};
  f.what_if = {"were " + who + " to arrive with the median rank: step " + format_duration_ms(s.step_ms_after),
               s.step_ms_now, std::nullopt, s.step_ms_after};
  f.claim.own_ms = s.cost_ms_per_step;
  return f;
}

}  // namespace

std::optional<Finding> find_straggler(const std::vector<const RankSummary*>& ranks,
                                      const std::vector<MatchedCollective>& matched, CrossRank& table) {
  if (ranks.size() < 2 || matched.empty() || table.calls.size() != matched.size()) return std::nullopt;
  std::optional<std::size_t> worst;
  double worst_cost = 0;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (table.ranks[r].late_ms <= 0) continue;
    double cost = cost_per_step(*ranks[r], r, matched, table);
    if (!worst || cost > worst_cost || (cost == worst_cost && table.ranks[r].late_ms > table.ranks[*worst].late_ms)) {
      worst = r;
      worst_cost = cost;
    }
  }
  if (!worst || worst_cost <= 0) return std::nullopt;  // last only where nobody waited (ties, warm-up): no straggler
  StragglerAnalysis s;
  s.position = *worst;
  s.rank = ranks[*worst]->rank;
  std::vector<double> savings;
  for (const CollectiveRow& c : table.calls) {
    if (c.last == *worst && c.saving_ms > 0) savings.push_back(c.saving_ms);
  }
  s.last_arrivals = table.ranks[*worst].last_arrivals;
  s.late_calls = static_cast<std::int64_t>(savings.size());
  s.late_median_ms = lower_median(savings);
  s.cost_ms_per_step = worst_cost;
  s.step_ms_now = ranks[*worst]->step_ms;
  s.step_ms_after = std::max(0.0, s.step_ms_now - worst_cost);
  compare_with_median(ranks, s);
  table.straggler = s;
  if (s.late_calls < 2 || s.step_ms_now <= 0 || worst_cost < thresholds::kStragglerMinShare * s.step_ms_now)
    return std::nullopt;
  return straggler_finding(s, *ranks[*worst]);
}

}  // namespace cuprobe
