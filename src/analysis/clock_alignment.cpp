#include "analysis/clock_alignment.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include "analysis/breakdown.h"
#include "analysis/collective_calls.h"
#include "common/percentile.h"

namespace cuprobe {
namespace {

// What makes two ranks' calls the same collective under the matching.
std::string identity(const CollectiveKey& k, CollectiveMatching m) {
  if (m == CollectiveMatching::kCommunicator) return k.communicator + '\n' + k.name;
  return std::to_string(k.stream_order) + '\n' + k.name;
}

}  // namespace

CollectiveMatching collective_matching(const std::vector<const RankSummary*>& ranks) {
  bool any = false;
  for (const RankSummary* s : ranks) {
    for (const CollectiveKey& k : s->keys) {
      if (k.communicator.empty()) return CollectiveMatching::kStreamOrder;
      any = true;
    }
  }
  return any ? CollectiveMatching::kCommunicator : CollectiveMatching::kStreamOrder;
}

std::string_view collective_matching_name(CollectiveMatching m) {
  return m == CollectiveMatching::kCommunicator ? "communicator" : "stream order";
}

std::vector<MatchedCollective> match_collectives(const std::vector<const RankSummary*>& ranks) {
  std::vector<MatchedCollective> matched;
  if (ranks.size() < 2) return matched;
  const CollectiveMatching how = collective_matching(ranks);
  // Per collective (in order of first sight), per rank: its calls of that collective in order.
  std::map<std::string, std::size_t> index;
  std::vector<std::vector<std::vector<std::size_t>>> by_collective;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankSummary& s = *ranks[r];
    std::vector<std::size_t> of_key(s.keys.size());
    for (std::size_t k = 0; k < s.keys.size(); ++k) {
      auto [it, fresh] = index.try_emplace(identity(s.keys[k], how), by_collective.size());
      if (fresh) by_collective.emplace_back(ranks.size());
      of_key[k] = it->second;
    }
    for (std::size_t c = 0; c < s.calls.size(); ++c) by_collective[of_key[s.calls[c].key]][r].push_back(c);
  }
  for (const auto& per_rank : by_collective) {
    std::size_t members = 0, count = kNotInCall, first = kNotInCall;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      if (per_rank[r].empty()) continue;
      ++members;
      count = std::min(count, per_rank[r].size());
      first = std::min(first, r);
    }
    // Stream order cannot tell a communicator of some ranks from a key a rank lacks: only keys on every rank.
    bool complete = members == ranks.size();
    if (members < 2 || (how == CollectiveMatching::kStreamOrder && !complete)) continue;
    for (std::size_t n = 0; n < count; ++n) {
      MatchedCollective m{first, ranks[first]->calls[per_rank[first][n]].key, n, {}};
      m.calls.reserve(ranks.size());
      for (std::size_t r = 0; r < ranks.size(); ++r)
        m.calls.push_back(per_rank[r].empty() ? kNotInCall : per_rank[r][n]);
      matched.push_back(std::move(m));
    }
  }
  std::stable_sort(matched.begin(), matched.end(), [&](const MatchedCollective& a, const MatchedCollective& b) {
    return ranks[a.first]->calls[a.calls[a.first]].start < ranks[b.first]->calls[b.calls[b.first]].start;
  });
  return matched;
}

ClockAlignment align_clocks(const std::vector<const RankSummary*>& ranks,
                            const std::vector<MatchedCollective>& matched) {
  const std::size_t n = ranks.size();
  ClockAlignment a;
  a.offset_ns.assign(n, 0);
  a.residual_ns.assign(n, 0);
  a.aligned.assign(n, false);
  a.matched_calls = matched.size();
  if (n == 0) return a;
  a.matching = collective_matching(ranks);
  a.aligned[0] = true;
  if (matched.empty()) return a;
  // Rounds: each rank not yet aligned that shares calls with an aligned one is put on the reference's clock through
  // them (each call's anchor: its first aligned rank, the reference where it takes part). With every rank in every
  // call (one communicator) one round aligns all, on the reference's own ends.
  for (bool progress = true; progress;) {
    progress = false;
    std::vector<std::vector<TimeNs>> delta(n);
    for (const MatchedCollective& m : matched) {
      std::size_t anchor = 0;
      while (anchor < n && (m.calls[anchor] == kNotInCall || !a.aligned[anchor])) ++anchor;
      if (anchor == n) continue;
      TimeNs anchor_end = ranks[anchor]->calls[m.calls[anchor]].end - a.offset_ns[anchor];
      for (std::size_t r = 0; r < n; ++r) {
        if (m.calls[r] != kNotInCall && !a.aligned[r]) delta[r].push_back(ranks[r]->calls[m.calls[r]].end - anchor_end);
      }
    }
    for (std::size_t r = 0; r < n; ++r) {
      if (delta[r].empty()) continue;
      a.offset_ns[r] = lower_median(delta[r]);
      for (TimeNs& d : delta[r]) d = std::llabs(d - a.offset_ns[r]);
      a.residual_ns[r] = lower_median(std::move(delta[r]));
      a.aligned[r] = true;
      progress = true;
    }
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
