// cross_rank: what `analyze` says across ranks (plain data; cross_rank_table.h
// computes it, straggler.h adds the straggler, report/ renders it). Every time
// here is on the aligned clock (clock_alignment.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cuprobe {

struct CrossRankRow {
  std::optional<int> rank;
  std::string file;
  double step_ms = 0;  // median step time (the window without steps)
  std::int64_t steps = 0;
  double busy_share = 0;           // GPU busy time of the window
  double communication_share = 0;  // communication kernels' time of GPU time
  // Time in matched collectives spent waiting for the last rank to arrive (each call: from its own arrival to the
  // last arrival, at most the call's duration), and its share of GPU time.
  double wait_ms = 0;
  double wait_share = 0;
  double clock_offset_ms = 0;      // its clock minus the reference rank's (what alignment subtracted)
  bool clock_aligned = false;      // on the reference's clock (false: no matched call reached it, offset 0)
  double clock_residual_us = 0;    // median distance of its aligned collective ends from the reference's
  std::int64_t last_arrivals = 0;  // matched calls it arrived at last
  // Summed over those calls: how much later it came than the call would have started had it arrived with the
  // median rank (the later of the median arrival and the next-to-last one).
  double late_ms = 0;
};

// One matched collective call (the n-th call of a kernel name on a communicator, on every rank that takes part;
// without communicators: on a communication stream, on every rank).
struct CollectiveRow {
  std::string name;
  std::string communicator;   // "pg 1 (tp) ranks [0, 1]"; empty when matched by stream order
  int stream_order = 0;       // the first rank's that takes part
  std::int64_t ranks = 0;     // the ranks that take part
  std::int64_t call = 0;      // 1-based n
  std::size_t last = 0;       // position (CrossRank::ranks) of the rank that arrived last
  double late_ms = 0;         // the last arrival after the median arrival of the ranks that take part
  double saving_ms = 0;       // the call's start were the last rank to arrive with the median rank
  double others_wait_ms = 0;  // the other ranks' waits (those that take part), summed
  double max_wait_ms = 0;     // the longest of them
};

// The rank whose late arrivals cost every rank the most per step, what it ran instead, and the step without it.
struct StragglerAnalysis {
  std::size_t position = 0;  // in CrossRank::ranks
  std::optional<int> rank;
  std::int64_t last_arrivals = 0;  // matched calls it arrived at last (CrossRankRow::last_arrivals)
  std::int64_t late_calls = 0;     // ... of which the others waited for it (a saving)
  double late_median_ms = 0;       // the median saving over those calls
  double cost_ms_per_step = 0;     // median over its steps of the savings of the calls in the step
  double step_ms_now = 0;
  double step_ms_after = 0;  // were it to arrive with the median rank
  // Per step, against the median rank, in the intervals before its arrivals (collective_calls.h): kernels that ran
  // longer by name (largest first), GPU idle time (host gaps), copies. Negative: less than the median rank.
  std::vector<std::pair<std::string, double>> extra_kernels_ms;
  double extra_idle_ms = 0;
  double extra_copy_ms = 0;
};

struct CrossRank {
  std::optional<int> reference_rank;  // the clock the others are aligned to
  std::size_t matched_calls = 0;      // 0: no collective on two ranks or more, clocks not aligned
  std::string matching;               // how calls were matched: "communicator" or "stream order" (clock_alignment.h)
  std::vector<CrossRankRow> ranks;
  std::vector<CollectiveRow> calls;  // in the order of each call's first rank
  std::optional<StragglerAnalysis> straggler;
};

}  // namespace cuprobe
