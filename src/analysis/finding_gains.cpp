#include "analysis/finding_gains.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/thresholds.h"

namespace cuprobe {
namespace {

struct Pools {
  std::unordered_map<std::size_t, double> activity_left;  // ms over the trace, by profile.gpu index
  double idle_left = 0;                                   // per step
  double step_left = 0;                                   // per step
};

using ActivityMs = std::function<double(std::size_t)>;

double activity_left(const ActivityMs& duration_ms, Pools& pools, std::size_t i) {
  auto [it, fresh] = pools.activity_left.try_emplace(i, 0.0);
  if (fresh) it->second = duration_ms(i);
  return it->second;
}

// The gain `claim` would own given what is left; with commit, takes it.
double take(const ActivityMs& duration_ms, const FindingClaim& claim, double steps, Pools& pools, bool commit) {
  double activity_ms = 0;
  for (const auto& [i, ms] : claim.activity_ms) {
    double got = std::min(std::max(0.0, ms), activity_left(duration_ms, pools, i));
    activity_ms += got;
    if (commit) pools.activity_left[i] -= got;
  }
  double idle = std::min(std::max(0.0, claim.idle_ms), pools.idle_left);
  double gain = std::min(pools.step_left, activity_ms / steps + idle + std::max(0.0, claim.own_ms));
  if (claim.max_gain_ms) gain = std::min(gain, std::max(0.0, *claim.max_gain_ms));
  if (commit) {
    pools.idle_left -= idle;
    pools.step_left -= gain;
  }
  return gain;
}

}  // namespace

std::string severity_for_gain(double gain_ms, double step_ms) {
  double share = step_ms > 0 ? gain_ms / step_ms : 0.0;
  if (share >= thresholds::kGainHigh) return "high";
  if (share >= thresholds::kGainMedium) return "medium";
  return "low";
}

double Finding::alone_gain_ms() const {
  if (what_if.step_ms_after_alone) return std::max(0.0, what_if.step_ms_now - *what_if.step_ms_after_alone);
  return step_share * what_if.step_ms_now;
}

void apportion_gains(const Profile& profile, RankAnalysis& analysis) {
  apportion_gains([&](std::size_t i) { return static_cast<double>(profile.gpu[i].duration()) / 1e6; }, analysis);
}

void apportion_gains(const ActivityMs& duration_ms, RankAnalysis& analysis) {
  const StepSummary& s = analysis.steps;
  bool steps = !s.steps.empty();
  double now = steps ? s.median_ms : analysis.window_ms;
  double busy = steps ? s.gpu_median_ms : analysis.gpu_busy_ms;
  Pools pools;
  pools.idle_left = std::max(0.0, now - busy);
  pools.step_left = std::max(0.0, now);
  double step_count = steps ? static_cast<double>(s.steps.size()) : 1.0;
  for (bool generic : {false, true}) {
    std::vector<Finding*> pending;
    for (auto& f : analysis.findings) {
      if (f.claim.generic == generic) pending.push_back(&f);
    }
    while (!pending.empty()) {
      auto best = pending.begin();
      double best_gain = -1;
      for (auto it = pending.begin(); it != pending.end(); ++it) {
        double g = take(duration_ms, (*it)->claim, step_count, pools, false);
        if (g > best_gain + 1e-12) best = it, best_gain = g;
      }
      Finding& f = **best;
      f.gain = take(duration_ms, f.claim, step_count, pools, true);
      pending.erase(best);
    }
  }
  for (auto& f : analysis.findings) {
    f.what_if.step_ms_now = now;
    if (f.what_if.step_ms_after_alone)
      f.what_if.step_ms_after = f.what_if.step_ms_now - f.gain;
    else
      f.what_if.step_ms_after.reset();
    f.severity = severity_for_gain(f.gain, now);
  }
  rank_findings(analysis.findings);
}

void rank_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
    if (a.gain != b.gain) return a.gain > b.gain;
    if (a.claim.generic != b.claim.generic) return !a.claim.generic;
    if (a.step_share != b.step_share) return a.step_share > b.step_share;
    return a.id < b.id;
  });
}

}  // namespace cuprobe
