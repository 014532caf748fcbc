#include "analysis/periodicity.h"

#include <algorithm>
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
  if (best < kMinMatch) return result;
  std::size_t period = 0;
  for (auto [lag, m] : scored) {  // ascending lag: the first within tolerance
    if (m >= best - kTieTolerance) {
      period = lag;
      result.match = m;
      break;
    }
  }
  // A longer lag that removes at least half of its mismatches is the whole step,
  // and that lag a layer repeating inside it (80 layers of 10 kernels match
  // themselves 10 kernels later everywhere but around the step's own kernels).
  for (auto [lag, m] : scored) {
    if (lag > period && m > result.match && m >= result.match + (1.0 - result.match) / 2) {
      period = lag;
      result.match = m;
      break;
    }
  }

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
  if (result.by_read_back) {
    result.starts = starts_at_read_backs(read_backs, period);
    if (result.starts.size() < 2) return PeriodicSteps{};
    result.period = static_cast<std::int64_t>(period);
    return result;
  }

  // Phase: the position within the period with the highest total boundary score.
  std::vector<double> gap_sum(period, 0.0);
  for (std::size_t i = 1; i < names.size(); ++i) gap_sum[i % period] += boundary_score[i];
  std::size_t phase = static_cast<std::size_t>(std::max_element(gap_sum.begin(), gap_sum.end()) - gap_sum.begin());

  // Walk from that position one period at a time in both directions; each
  // boundary is the highest score within a small window around the expected
  // position, so steps of slightly different length (a prefill) stay aligned.
  const std::size_t n = names.size();
  const std::size_t window = std::max<std::size_t>(2, period / 8);
  auto best_boundary_in = [&](std::size_t lo, std::size_t hi) {  // [lo, hi], clamped
    hi = std::min(hi, n - 1);
    std::size_t best_at = lo;
    for (std::size_t i = lo; i <= hi; ++i) {
      if (boundary_score[i] > boundary_score[best_at]) best_at = i;
    }
    return best_at;
  };
  std::size_t anchor = phase;  // the strongest boundary of that phase
  for (std::size_t i = phase; i < n; i += period) {
    if (boundary_score[i] > boundary_score[anchor]) anchor = i;
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
  if (starts.size() < 2) return result;
  result.period = static_cast<std::int64_t>(period);
  result.starts = std::move(starts);
  return result;
}

}  // namespace cuprobe
