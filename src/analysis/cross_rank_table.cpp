#include "analysis/cross_rank_table.h"

#include <algorithm>

namespace cuprobe {
namespace {

CrossRankRow rank_row(const RankSummary& s, const ClockAlignment& clocks, std::size_t r) {
  CrossRankRow row;
  row.rank = s.rank;
  row.file = s.file;
  row.step_ms = s.step_ms;
  row.steps = static_cast<std::int64_t>(s.step_starts.size());
  row.busy_share = s.gpu_busy_share;
  row.communication_share = s.gpu_time_ms > 0 ? s.communication_ms / s.gpu_time_ms : 0.0;
  row.clock_offset_ms = static_cast<double>(clocks.offset_ns[r]) / 1e6;
  row.clock_residual_us = static_cast<double>(clocks.residual_ns[r]) / 1e3;
  row.clock_aligned = r < clocks.aligned.size() && clocks.aligned[r];
  return row;
}

// One call: arrivals on the aligned clock of the ranks that take part, the last one, and the waits it caused.
CollectiveRow call_row(const std::vector<const RankSummary*>& ranks, const MatchedCollective& m,
                       const ClockAlignment& clocks, CollectiveMatching matching, std::vector<CrossRankRow>& rows) {
  std::vector<std::size_t> members;
  std::vector<TimeNs> arrival(ranks.size(), 0), sorted;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (m.calls[r] == kNotInCall) continue;
    members.push_back(r);
    arrival[r] = ranks[r]->calls[m.calls[r]].start - clocks.offset_ns[r];
    sorted.push_back(arrival[r]);
  }
  std::size_t last = members.front();
  for (std::size_t r : members) {
    if (arrival[r] > arrival[last]) last = r;
  }
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  TimeNs median = sorted[(n - 1) / 2];  // the lower median: with two ranks, the other one
  TimeNs next_to_last = sorted[n - 2];
  const CollectiveKey& key = ranks[m.first]->keys[m.key];
  CollectiveRow row;
  row.name = key.name;
  if (matching == CollectiveMatching::kCommunicator) row.communicator = key.communicator;
  row.stream_order = key.stream_order;
  row.ranks = static_cast<std::int64_t>(n);
  row.call = static_cast<std::int64_t>(m.n) + 1;
  row.last = last;
  row.late_ms = static_cast<double>(arrival[last] - median) / 1e6;
  row.saving_ms = static_cast<double>(arrival[last] - std::max(median, next_to_last)) / 1e6;
  for (std::size_t r : members) {
    const CollectiveCall& c = ranks[r]->calls[m.calls[r]];
    double wait = static_cast<double>(std::min(arrival[last] - arrival[r], c.end - c.start)) / 1e6;
    wait = std::max(0.0, wait);
    rows[r].wait_ms += wait;
    if (r == last) continue;
    row.others_wait_ms += wait;
    row.max_wait_ms = std::max(row.max_wait_ms, wait);
  }
  rows[last].last_arrivals += 1;
  rows[last].late_ms += row.saving_ms;
  return row;
}

}  // namespace

CrossRank cross_rank_table(const std::vector<const RankSummary*>& ranks, const std::vector<MatchedCollective>& matched,
                           const ClockAlignment& clocks) {
  CrossRank table;
  if (ranks.empty()) return table;
  table.reference_rank = ranks[clocks.reference]->rank;
  table.matched_calls = matched.size();
  const CollectiveMatching matching = collective_matching(ranks);
  table.matching = collective_matching_name(matching);
  for (std::size_t r = 0; r < ranks.size(); ++r) table.ranks.push_back(rank_row(*ranks[r], clocks, r));
  if (ranks.size() >= 2) {
    table.calls.reserve(matched.size());
    for (const MatchedCollective& m : matched) table.calls.push_back(call_row(ranks, m, clocks, matching, table.ranks));
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    double gpu = ranks[r]->gpu_time_ms;
    table.ranks[r].wait_share = gpu > 0 ? std::min(1.0, table.ranks[r].wait_ms / gpu) : 0.0;
  }
  return table;
}

}  // namespace cuprobe
