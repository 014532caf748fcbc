#include "analysis/clock_alignment.h"

#include <algorithm>
#include <cstdlib>

#include "analysis/breakdown.h"
#include "analysis/collective_calls.h"
#include "common/percentile.h"

namespace cuprobe {

std::vector<MatchedCollective> match_collectives(const std::vector<const RankSummary*>& ranks) {
  std::vector<MatchedCollective> matched;
  if (ranks.size() < 2) return matched;
  const RankSummary& ref = *ranks.front();
  // Per rank, per reference key: its calls of that key in order.
  std::vector<std::vector<std::vector<std::size_t>>> by_key(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankSummary& s = *ranks[r];
    std::vector<int> to_ref(s.keys.size(), -1);
    for (std::size_t k = 0; k < s.keys.size(); ++k) {
      auto it = std::find(ref.keys.begin(), ref.keys.end(), s.keys[k]);
      if (it != ref.keys.end()) to_ref[k] = static_cast<int>(it - ref.keys.begin());
    }
    by_key[r].resize(ref.keys.size());
    for (std::size_t c = 0; c < s.calls.size(); ++c) {
      int k = to_ref[s.calls[c].key];
      if (k >= 0) by_key[r][static_cast<std::size_t>(k)].push_back(c);
    }
  }
  for (std::uint32_t k = 0; k < ref.keys.size(); ++k) {
    std::size_t count = by_key[0][k].size();
    for (std::size_t r = 1; r < ranks.size(); ++r) count = std::min(count, by_key[r][k].size());
    for (std::size_t n = 0; n < count; ++n) {
      MatchedCollective m{k, n, {}};
      m.calls.reserve(ranks.size());
      for (std::size_t r = 0; r < ranks.size(); ++r) m.calls.push_back(by_key[r][k][n]);
      matched.push_back(std::move(m));
    }
  }
  std::sort(matched.begin(), matched.end(), [&](const MatchedCollective& a, const MatchedCollective& b) {
    return ref.calls[a.calls[0]].start < ref.calls[b.calls[0]].start;
  });
  return matched;
}

ClockAlignment align_clocks(const std::vector<const RankSummary*>& ranks,
                            const std::vector<MatchedCollective>& matched) {
  ClockAlignment a;
  a.offset_ns.assign(ranks.size(), 0);
  a.residual_ns.assign(ranks.size(), 0);
  a.matched_calls = matched.size();
  if (matched.empty()) return a;
  for (std::size_t r = 1; r < ranks.size(); ++r) {
    std::vector<TimeNs> delta;
    delta.reserve(matched.size());
    for (const MatchedCollective& m : matched)
      delta.push_back(ranks[r]->calls[m.calls[r]].end - ranks[0]->calls[m.calls[0]].end);
    a.offset_ns[r] = lower_median(delta);
    for (TimeNs& d : delta) d = std::llabs(d - a.offset_ns[r]);
    a.residual_ns[r] = lower_median(std::move(delta));
  }
  return a;
}

ClockAlignment align_profile_clocks(const std::vector<Profile>& ranks) {
  std::vector<RankSummary> summaries(ranks.size());
  std::vector<const RankSummary*> pointers;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    collect_collective_calls(ranks[r], classify_activities(ranks[r]), summaries[r]);
    pointers.push_back(&summaries[r]);
  }
  return align_clocks(pointers, match_collectives(pointers));
}

}  // namespace cuprobe
