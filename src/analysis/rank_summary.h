// rank_summary: what the cross-rank analysis keeps of one rank once the rank's
// Profile is released (analyze over many ranks holds a few Profiles at a time,
// and one RankSummary per rank). Times are on the rank's own clock;
// clock_alignment.h says how ranks' clocks are lined up.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analysis_result.h"
#include "model/profile.h"

namespace cuprobe {

// One call of a collective (a communication kernel) on the rank.
struct CollectiveCall {
  std::uint32_t key = 0;  // RankSummary::keys index: its kernel name and stream
  TimeNs start = 0, end = 0;
  std::size_t activity = 0;  // profile.gpu index (findings' claims)
};

// A collective's identity on a rank: the kernel name, its communicator where the trace names it (process group:
// "pg 1 (tp) ranks [0, 1]", GpuActivity::communicator; empty where it does not), and its stream's position among
// the rank's streams that run communication (by first call: 0, 1, ...), which stands for the communicator where the
// trace does not name it (clock_alignment.h: CollectiveMatching).
struct CollectiveKey {
  std::string name;
  int stream_order = 0;
  std::string communicator;
  bool operator==(const CollectiveKey&) const = default;
};

// What the rank ran between the end of each collective call and the start of its next one (the interval before
// an arrival), summed over the trace: a straggler's extra work shows here.
struct BeforeArrival {
  std::vector<std::pair<std::string, double>> kernel_ms;  // by name (kernels and graph launches), largest first
  double copy_ms = 0;                                     // memcpy and memset time
  double idle_ms = 0;  // no GPU activity at all: the GPU waited for the host (host gaps)
  double span_ms = 0;  // the intervals' total length
};

struct RankSummary {
  std::optional<int> rank;
  std::string file;
  std::vector<CollectiveKey> keys;
  std::vector<CollectiveCall> calls;  // by start
  BeforeArrival before;
  std::vector<TimeNs> step_starts;  // each step's first GPU start (ascending), empty without steps
  double step_ms = 0;               // median step time, the window without steps
  double window_ms = 0;
  double gpu_busy_share = 0;    // of the window
  double gpu_time_ms = 0;       // what shares of GPU time are of (RankAnalysis::gpu_time_ms)
  double communication_ms = 0;  // the communication category's time
  // The durations of the activities the rank's findings claim and of its collective calls (finding_gains.h
  // reads them once the Profile is gone).
  std::vector<std::pair<std::size_t, double>> activity_ms;  // by profile.gpu index, ascending
};

// The summary of one analysed rank; `classes` are its activities' classes (classify_activities).
RankSummary summarize_rank(const Profile& profile, const std::vector<KernelClass>& classes,
                           const RankAnalysis& analysis);

// An activity's duration in ms from the summary (0 when it was not kept).
double summary_activity_ms(const RankSummary& summary, std::size_t activity);

}  // namespace cuprobe
