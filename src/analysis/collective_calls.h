// collective_calls: a rank's communication kernels as collective calls, each
// keyed by its kernel name, its communicator where the trace names it and its
// stream's order among the rank's communication streams (the n-th call of a
// key is matched across ranks: clock_alignment.h), and what the rank ran between one call's end and the
// next call's start (the interval before each arrival).
#pragma once

#include <vector>

#include "analysis/kernel_taxonomy.h"
#include "analysis/rank_summary.h"
#include "model/profile.h"

namespace cuprobe {

// Fills summary.keys and summary.calls from the profile's communication kernels (classes[i].category).
void collect_collective_calls(const Profile& profile, const std::vector<KernelClass>& classes, RankSummary& summary);

// Fills summary.before from the calls and the profile's other GPU activities.
void summarize_before_arrivals(const Profile& profile, const std::vector<KernelClass>& classes, RankSummary& summary);

}  // namespace cuprobe
