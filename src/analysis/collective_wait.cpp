#include "analysis/collective_wait.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "analysis/thresholds.h"
#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {
namespace {

using Durations = std::map<std::string, std::vector<double>>;   // kernel name -> ms, in call order
using Calls = std::map<std::string, std::vector<std::size_t>>;  // kernel name -> profile.gpu index, in call order

Durations communication_durations(const RankInput& r, Calls& calls) {
  Durations d;
  for (const CollectiveCall& c : r.summary->calls) {
    const std::string& name = r.summary->keys[c.key].name;
    d[name].push_back(static_cast<double>(c.end - c.start) / 1e6);
    calls[name].push_back(c.activity);
  }
  return d;
}

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
  std::vector<Durations> durations;
  std::vector<Calls> calls_of(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) durations.push_back(communication_durations(ranks[r], calls_of[r]));

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
  for (const auto& [name, first_rank_calls] : durations[0]) {
    std::size_t calls = first_rank_calls.size();
    bool everywhere = true;
    for (const auto& d : durations) {
      auto it = d.find(name);
      if (it == d.end()) {
        everywhere = false;
        break;
      }
      calls = std::min(calls, it->second.size());
    }
    if (!everywhere) continue;
    for (std::size_t k = 0; k < calls; ++k) {
      std::size_t fastest = 0;
      for (std::size_t r = 1; r < ranks.size(); ++r) {
        if (durations[r].at(name)[k] < durations[fastest].at(name)[k]) fastest = r;
      }
      double min_ms = durations[fastest].at(name)[k];
      for (std::size_t r = 0; r < ranks.size(); ++r) {
        double extra = durations[r].at(name)[k] - min_ms;
        excess[r] += extra;
        call_excess[r].push_back(extra);
        excess_at[r].emplace_back(calls_of[r].at(name)[k], extra);
        if (extra > worst[r].here_ms - worst[r].peer_ms) {
          worst[r] = {name, k, durations[r].at(name)[k], min_ms, fastest};
        }
      }
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
