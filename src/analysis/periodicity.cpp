#include "analysis/periodicity.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace cuprobe {
namespace {

constexpr std::size_t kMinKernels = 16;
constexpr std::int64_t kMinPeriod = 2;
constexpr double kMinMatch = 0.6;
constexpr double kTieTolerance = 0.02;

double match_fraction(const std::vector<StringId>& names, std::size_t lag) {
  std::size_t n = names.size() - lag, same = 0;
  for (std::size_t i = 0; i < n; ++i) same += names[i] == names[i + lag];
  return static_cast<double>(same) / static_cast<double>(n);
}

std::vector<std::size_t> candidate_lags(const std::vector<StringId>& names) {
  std::unordered_map<StringId, std::size_t> last_seen;
  std::unordered_map<StringId, std::unordered_map<std::size_t, std::size_t>> gaps;
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto [it, inserted] = last_seen.try_emplace(names[i], i);
    if (!inserted) {
      ++gaps[names[i]][i - it->second];
      it->second = i;
    }
  }
  std::vector<std::size_t> lags;
  for (const auto& [name, histogram] : gaps) {
    auto mode = std::max_element(histogram.begin(), histogram.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    if (mode->second >= 2 && static_cast<std::int64_t>(mode->first) >= kMinPeriod && mode->first <= names.size() / 2) {
      lags.push_back(mode->first);
    }
  }
  std::sort(lags.begin(), lags.end());
  lags.erase(std::unique(lags.begin(), lags.end()), lags.end());
  return lags;
}

// Read-backs recur at `lag`: most of them have another one `lag` kernels later (within a window), and at least
// half of the lag-long spans of the sequence hold one.
bool recurs(const std::vector<std::size_t>& read_backs, std::size_t lag, std::size_t n) {
  const std::size_t window = std::max<std::size_t>(2, lag / 8);
  std::size_t eligible = 0, hits = 0;
  for (std::size_t p : read_backs) {
    if (p + lag + window >= n) break;
    ++eligible;
    auto it = std::lower_bound(read_backs.begin(), read_backs.end(), p + lag - std::min(window, p + lag));
    if (it != read_backs.end() && *it <= p + lag + window) ++hits;
  }
  return eligible >= 3 && 2 * hits >= eligible && 2 * (hits + 1) * lag >= n;
}

// Steps from the read-backs: each begins at one, skipping those less than half a period after the last start
// (a step that reads back twice); leading kernels form a step when long enough.
std::vector<std::size_t> starts_at_read_backs(const std::vector<std::size_t>& read_backs, std::size_t period) {
  std::vector<std::size_t> starts;
  for (std::size_t p : read_backs) {
    if (starts.empty()) {
      if (p >= period / 2) starts.push_back(0);  // the leading kernels: the first call's prefill
      starts.push_back(p);
    } else if (p - starts.back() >= period / 2) {
      starts.push_back(p);
    }
  }
  return starts;
}

// The boundary score a lag's steps begin with: at each position of the lag, the 25th percentile of the scores
// found there one lag apart; the highest over the positions, and that position. A step's boundary carries the
// host's gap (a synchronize, the loop's own work) at nearly every repeat; a layer's first kernel once in N.
struct BoundaryLevel {
  double level = 0;
  std::size_t phase = 0;
};

BoundaryLevel boundary_level(const std::vector<double>& score, std::size_t lag) {
  constexpr std::size_t kLevelKernels = 200'000;  // enough repeats to judge by; bounds the work on long runs
  const std::size_t n = std::min(score.size(), std::max(kLevelKernels, 4 * lag));
  BoundaryLevel best;
  std::vector<double> at;
  for (std::size_t phase = 0; phase < lag && phase < n; ++phase) {
    at.clear();
    for (std::size_t i = phase == 0 ? lag : phase; i < n; i += lag) at.push_back(score[i]);
    if (at.size() < 2) continue;
    auto q = at.begin() + static_cast<std::ptrdiff_t>(at.size() / 4);
    std::nth_element(at.begin(), q, at.end());
    if (*q > best.level) best = {*q, phase};
  }
  return best;
}

// Lags the strong boundaries suggest: the most common distance between consecutive boundaries scoring above a
// high quantile of all scores, for a few quantiles.
std::vector<std::size_t> boundary_lags(const std::vector<double>& score) {
  std::vector<double> sorted(score.begin() + 1, score.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::size_t> lags;
  const double median = sorted[sorted.size() / 2];
  for (double q : {0.995, 0.99, 0.98, 0.95, 0.9, 0.8}) {
    double threshold = sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
    if (threshold <= 2 * median) continue;
    std::unordered_map<std::size_t, std::size_t> distances;
    std::size_t last = 0;
    for (std::size_t i = 1; i < score.size(); ++i) {
      if (score[i] < threshold) continue;
      if (last > 0) ++distances[i - last];
      last = i;
    }
    std::size_t mode = 0, count = 0;
    for (auto [d, c] : distances) {
      if (c > count || (c == count && d < mode)) mode = d, count = c;
    }
    if (count >= 2) lags.push_back(mode);
  }
  return lags;
}

// The step is the longest repeat the kernel sequence explains whose boundaries are the host's: a program whose
// layers are alike (no kernel once per step) matches itself one layer later, and only the gaps the host leaves
// between steps (a synchronize, a read of the clock, the loop's own work) say where a step ends. Among lags that are
// multiples of the period found, or that the strong boundaries suggest, and that the names match as well, in
// ascending order: each whose boundary level is at least twice that of the lag chosen before it. Its lag and
// level; the period and its own level when none is.
struct BoundaryStep {
  std::size_t lag = 0;
  BoundaryLevel at;
};

// How much worse than the period a longer lag may match the names: a warm-up of other kernels before the steps
// mismatches at every lag up to its length, which weighs more in a short recording (14 steps of 4 GEMMs after 4
// initialisation kernels match 98% one kernel later, 93% four later).
constexpr double kNamesTolerance = 0.1;

BoundaryStep step_from_boundaries(const std::vector<StringId>& names, const std::vector<double>& score,
                                  std::size_t period, double match, const std::vector<std::size_t>& more_lags = {},
                                  std::size_t min_repeats = 2) {
  const std::size_t n = names.size();
  constexpr std::size_t kMaxMultiple = 64;
  std::vector<std::size_t> lags{period};
  for (std::size_t k = 2; k <= kMaxMultiple && k * period * min_repeats <= n; ++k) lags.push_back(k * period);
  std::vector<std::size_t> suggested = boundary_lags(score);
  suggested.insert(suggested.end(), more_lags.begin(), more_lags.end());
  for (std::size_t lag : suggested) {
    if (lag > period && lag * min_repeats <= n) lags.push_back(lag);
  }
  std::sort(lags.begin(), lags.end());
  lags.erase(std::unique(lags.begin(), lags.end()), lags.end());
  // Ascending: a longer lag is the step only where its boundaries stand at least twice as high as those of the
  // lag chosen so far (which was then a layer of it). A multiple of the step holds the same boundaries, fewer of
  // them, so the highest of their low quantiles creeps up with the lag: it must not win by that alone.
  constexpr double kStepOverLayer = 2.0;
  BoundaryStep best{period, boundary_level(score, period)};
  for (std::size_t lag : lags) {
    if (lag <= period || match_fraction(names, lag) < std::max(kMinMatch, match - kNamesTolerance)) continue;
    BoundaryLevel level = boundary_level(score, lag);
    if (level.level >= kStepOverLayer * best.at.level && level.level > 0) best = {lag, level};
  }
  return best;
}

// The read-back lag L was taken as the step, but the read-backs may be inside the step (one per layer or expert), the
// step's own end showing as a longer gap of the host's (its synchronize, the loop's own work) once in every few
// read-backs. On the idle gaps alone (the read-back's own score taken off), the longest repeat the boundaries explain
// (step_from_boundaries from L) is the step where it is longer than L; else {0}. A process calling generate several
// times reads back alike after every decode step: no longer repeat of its gaps stands out, and its steps stay L.
constexpr std::size_t kMinRepeatsAroundReadBacks = 8;

BoundaryStep step_around_read_backs(const std::vector<StringId>& names, const std::vector<double>& gaps,
                                    const std::vector<std::size_t>& read_backs, std::size_t lag, double match,
                                    std::size_t by_names) {
  // Lags the longest gaps after the read-backs suggest (the step's own among the layers'), and the multiples of the
  // names' period (a layer of experts each read back, its step some layers long; the names' period itself is the
  // longer repeat the read-backs overruled: several `generate` calls, each one period of the names).
  std::vector<double> after_read_backs(gaps.size(), 0.0);
  for (std::size_t i : read_backs) after_read_backs[i] = gaps[i];
  std::vector<std::size_t> more = boundary_lags(after_read_backs);
  for (std::size_t k = 2; by_names > lag && k <= 64 && k * by_names * 2 <= names.size(); ++k)
    more.push_back(k * by_names);
  // Judged on at least kMinRepeatsAroundReadBacks repeats: a longer lag seen fewer times is as likely a whole call
  // made a few times (generate called 4 times: its decode steps are read back alike, each call a longer repeat).
  BoundaryStep step = step_from_boundaries(names, gaps, lag, match, more, kMinRepeatsAroundReadBacks);
  return step.lag > lag && step.at.level > 0 ? step : BoundaryStep{};
}

// Each step's first kernel: from the phase (the position within the period whose boundaries are strongest), one
// period at a time in both directions, each boundary the highest score within a small window around the expected
// position (so steps of slightly different length, a prefill, stay aligned); below `weak` (steps found by their
// boundaries: a synchronize missed) the expected position itself.
std::vector<std::size_t> walk_starts(const std::vector<double>& score, std::size_t period, std::size_t phase,
                                     double weak, bool by_boundaries) {
  const std::size_t n = score.size();
  const std::size_t window = std::max<std::size_t>(2, period / 8);
  auto best_boundary_in = [&](std::size_t lo, std::size_t hi) {  // [lo, hi], clamped
    hi = std::min(hi, n - 1);
    std::size_t best_at = lo;
    for (std::size_t i = lo; i <= hi; ++i) {
      if (score[i] > score[best_at]) best_at = i;
    }
    std::size_t expected = (lo + hi + 1) / 2;
    return score[best_at] < weak && expected < n ? expected : best_at;
  };
  std::size_t anchor = phase;  // the strongest boundary of that phase
  for (std::size_t i = phase; i < n; i += period) {
    if (score[i] > score[anchor] && !(by_boundaries && score[i] > 8 * weak)) anchor = i;
  }
  std::vector<std::size_t> starts{anchor};
  for (std::size_t b = anchor; b + period < n;) {
    b = best_boundary_in(b + period - window, b + period + window);
    starts.push_back(b);
  }
  std::vector<std::size_t> before;
  for (std::size_t b = anchor; b > period + window;) {
    b = best_boundary_in(b - period - window, b - period + window);
    before.push_back(b);
  }
  starts.insert(starts.begin(), before.rbegin(), before.rend());
  // Leading kernels before the first boundary form a step when long enough (the prefill).
  if (starts.front() >= period / 2) starts.insert(starts.begin(), 0);
  return starts;
}

// The names' period: the shortest lag within kTieTolerance of the best match, unless a longer lag removes at least
// half of its mismatches (the whole step, and that lag a layer repeating inside it: 80 layers of 10 kernels match
// themselves 10 kernels later everywhere but around the step's own kernels). 0 when none.
std::size_t names_period(const std::vector<std::pair<std::size_t, double>>& scored, double best, double& match) {
  std::size_t period = 0;
  for (auto [lag, m] : scored) {  // ascending lag: the first within tolerance
    if (m >= best - kTieTolerance) {
      period = lag;
      match = m;
      break;
    }
  }
  for (auto [lag, m] : scored) {
    if (lag > period && m > match && m >= match + (1.0 - match) / 2) {
      period = lag;
      match = m;
      break;
    }
  }
  return period;
}

}  // namespace

PeriodicSteps find_periodic_steps(const std::vector<StringId>& names, const std::vector<double>& boundary_score,
                                  const std::vector<bool>& read_back) {
  PeriodicSteps result;
  if (names.size() < kMinKernels) return result;

  std::vector<std::pair<std::size_t, double>> scored;
  double best = 0;
  for (std::size_t lag : candidate_lags(names)) {
    double m = match_fraction(names, lag);
    scored.emplace_back(lag, m);
    best = std::max(best, m);
  }
  if (best < kMinMatch) {
    // One kernel repeated (a step of N alike single-kernel layers): only the host's gaps can say what a step is.
    double same = match_fraction(names, 1);
    BoundaryStep step = same >= kMinMatch ? step_from_boundaries(names, boundary_score, 1, same) : BoundaryStep{};
    if (step.lag < 2) return result;
    scored = {{step.lag, match_fraction(names, step.lag)}};
    best = scored.front().second;
    result.by_boundaries = true;
  }
  std::size_t period = names_period(scored, best, result.match);
  const std::size_t by_names = period;

  // The shortest lag at which the step's result is read back is the step: a longer period
  // found above was a whole call made several times (generate called in a loop).
  std::vector<std::size_t> read_backs;
  for (std::size_t i = 0; i < read_back.size() && i < names.size(); ++i) {
    if (read_back[i]) read_backs.push_back(i);
  }
  if (!read_backs.empty()) {
    for (auto [lag, m] : scored) {
      if (lag > period) break;
      if (m < kMinMatch || !recurs(read_backs, lag, names.size())) continue;
      period = lag;
      result.match = m;
      result.by_read_back = true;
      break;
    }
  }
  // The scores the steps are cut by: with read-backs inside a longer step, the idle gaps alone.
  std::vector<double> gaps;
  const std::vector<double>* score = &boundary_score;
  BoundaryStep by_boundaries;
  // A read-back span that itself repeats at a shorter lag holds layers: a whole forward pass, the step (a decode
  // step read back once). One that does not is a layer or an expert, which may be read back inside a longer step.
  bool span_has_layers = std::any_of(scored.begin(), scored.end(),
                                     [&](const auto& lm) { return lm.first < period && lm.second >= kMinMatch; });
  if (result.by_read_back && !span_has_layers) {
    gaps = boundary_score;
    // The idle gap alone: the read-back's and the synchronize's scores (multiples of kSynchronizeScore) taken off;
    // every expert's or layer's read-back synchronizes too.
    for (double& g : gaps) g = std::fmod(g, kSynchronizeScore);
    by_boundaries = step_around_read_backs(names, gaps, read_backs, period, result.match, by_names);
    if (by_boundaries.lag > 0) {
      period = by_boundaries.lag;
      result.match = match_fraction(names, period);
      result.by_read_back = false;
      result.by_boundaries = true;
      result.read_backs_inside = true;
      score = &gaps;
    }
  } else if (!result.by_read_back) {
    by_boundaries = step_from_boundaries(names, boundary_score, period, result.match);
    if (by_boundaries.at.level > 0 && (by_boundaries.lag != period || result.by_boundaries)) {
      period = by_boundaries.lag;
      result.match = match_fraction(names, period);
      result.by_boundaries = true;
    }
  }
  if (result.by_read_back) {
    result.starts = starts_at_read_backs(read_backs, period);
    if (result.starts.size() < 2) return PeriodicSteps{};
    result.period = static_cast<std::int64_t>(period);
    return result;
  }

  // Phase: the position within the period with the highest total boundary score; steps found by their boundaries:
  // the position whose boundaries are consistently strong (a warm-up's few long gaps outweigh the sum).
  std::vector<double> gap_sum(period, 0.0);
  for (std::size_t i = 1; i < names.size(); ++i) gap_sum[i % period] += (*score)[i];
  std::size_t phase = static_cast<std::size_t>(std::max_element(gap_sum.begin(), gap_sum.end()) - gap_sum.begin());
  const double weak = result.by_boundaries ? by_boundaries.at.level / 2 : -1.0;
  if (result.by_boundaries) phase = by_boundaries.at.phase;
  std::vector<std::size_t> starts = walk_starts(*score, period, phase, weak, result.by_boundaries);
  if (starts.size() < 2) return result;
  result.period = static_cast<std::int64_t>(period);
  result.starts = std::move(starts);
  return result;
}

}  // namespace cuprobe
