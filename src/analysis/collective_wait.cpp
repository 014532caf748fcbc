#include "analysis/collective_wait.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "analysis/clock_alignment.h"
#include "analysis/thresholds.h"
#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {
namespace {

std::string rank_label(const RankInput& r, std::size_t index) {
  return "rank " + std::to_string(r.analysis->rank.value_or(static_cast<int>(index)));
}

// Time spent waiting in collectives is not communication cost: take it out of
// communication_dominant, which then stands only if the rest still crosses its threshold.
void discount_waiting(RankAnalysis& a, double comm_ms, double waiting_ms) {
  for (auto it = a.findings.begin(); it != a.findings.end(); ++it) {
    if (it->id != "communication_dominant") continue;
    double moving_share = a.gpu_time_ms() > 0 ? std::max(0.0, comm_ms - waiting_ms) / a.gpu_time_ms() : 0.0;
    if (moving_share < thresholds::kCommunicationMedium) {
      a.findings.erase(it);
    } else {
      double kept = moving_share / std::max(it->share, 1e-12);
      it->share = moving_share;
      it->step_share *= std::min(1.0, kept);
      it->title += " (after leaving out the time spent waiting for peers)";
    }
    return;
  }
}

}  // namespace

void add_collective_wait_findings(const std::vector<RankInput>& ranks) {
  if (ranks.size() < 2) return;
  std::vector<const RankSummary*> summaries;
  for (const RankInput& r : ranks) summaries.push_back(r.summary);
  auto call_ms = [&](const MatchedCollective& m, std::size_t r) {
    const CollectiveCall& c = summaries[r]->calls[m.calls[r]];
    return static_cast<double>(c.end - c.start) / 1e6;
  };

  struct Worst {
    std::string name;
    std::size_t call = 0;
    double here_ms = 0, peer_ms = 0;
    std::size_t peer = 0;
  };
  std::vector<double> excess(ranks.size(), 0.0);
  std::vector<std::vector<double>> call_excess(ranks.size());                        // per paired call, for the what-if
  std::vector<std::vector<std::pair<std::size_t, double>>> excess_at(ranks.size());  // profile.gpu index -> excess
  std::vector<Worst> worst(ranks.size());
  // Each call among the ranks that take part (the cross-rank table's matching: per communicator where named).
  for (const MatchedCollective& m : match_collectives(summaries)) {
    std::size_t fastest = kNotInCall;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      if (m.calls[r] != kNotInCall && (fastest == kNotInCall || call_ms(m, r) < call_ms(m, fastest))) fastest = r;
    }
    const double min_ms = call_ms(m, fastest);
    const std::string& name = summaries[m.first]->keys[m.key].name;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      if (m.calls[r] == kNotInCall) continue;
      double here = call_ms(m, r), extra = here - min_ms;
      excess[r] += extra;
      call_excess[r].push_back(extra);
      excess_at[r].emplace_back(summaries[r]->calls[m.calls[r]].activity, extra);
      if (extra > worst[r].here_ms - worst[r].peer_ms) worst[r] = {name, m.n, here, min_ms, fastest};
    }
  }

  for (std::size_t r = 0; r < ranks.size(); ++r) {
    RankAnalysis& a = *ranks[r].analysis;
    double comm_ms = 0;
    for (const auto& c : a.categories) {
      if (c.category == Category::kCommunication) comm_ms = c.time_ms;
    }
    if (excess[r] < thresholds::kCollectiveWaitMinMs || comm_ms <= 0 ||
        excess[r] / comm_ms < thresholds::kCollectiveWaitShare) {
      continue;
    }
    const Worst& w = worst[r];
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s waits in collectives: %.1f ms longer than its fastest peers in total (%.0f%% of its "
                  "communication time); worst: call %zu took %.2f ms here vs %.3f ms on %s",
                  rank_label(ranks[r], r).c_str(), excess[r], 100.0 * excess[r] / comm_ms, w.call + 1, w.here_ms,
                  w.peer_ms, rank_label(ranks[w.peer], w.peer).c_str());
    Finding f;
    f.id = "collective_wait";
    f.rank = a.rank;
    f.share = a.gpu_time_ms() > 0 ? std::min(1.0, excess[r] / a.gpu_time_ms()) : 0;
    f.step_share = a.window_ms > 0 ? std::min(1.0, excess[r] / a.window_ms) : 0;
    f.title = buf;
    f.kernels = {w.name};
    f.suggestion =
        "This rank reached the collective long before its peers. Look at what the late rank did just "
        "before (host work, a data-dependent branch, a first-call warm-up or compile), balance work "
        "across ranks, and leave warm-up iterations out of the profile.";
    f.numbers = {{"excess_ms", excess[r]},
                 {"communication_ms", comm_ms},
                 {"worst_call_ms", w.here_ms},
                 {"worst_call_peer_ms", w.peer_ms}};
    // With steps, a typical step's wait: the median call's excess times the calls per step
    // (a one-off wait, such as start-up skew, does not slow every step).
    double steps = static_cast<double>(a.steps.steps.size());
    double now = steps > 0 ? a.steps.median_ms : a.window_ms;
    double median_excess = percentile(call_excess[r], 50);
    double waited = steps > 0 ? median_excess * static_cast<double>(call_excess[r].size()) / steps : excess[r];
    double after = std::max(0.0, now - waited);
    f.what_if = {steps > 0 ? "without the typical wait for peers (the median call's excess, " +
                                 format_duration_ms(median_excess) + ", on each of its calls): step " +
                                 format_duration_ms(after)
                           : "without the wait for peers: trace window " + format_duration_ms(after),
                 now, std::nullopt, after};
    // Its claim: the calls' excess, scaled to the what-if (a typical step's wait), step by step.
    double total = (steps > 0 ? steps : 1.0) * (now - after);
    double scale = excess[r] > 0 ? std::min(1.0, total / excess[r]) : 0.0;
    for (auto [i, extra] : excess_at[r]) f.claim.activity_ms.emplace_back(i, extra * scale);
    a.findings.push_back(std::move(f));
    discount_waiting(a, comm_ms, excess[r]);
  }
}

}  // namespace cuprobe
