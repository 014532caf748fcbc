// Step detection for traces without step annotations (Hugging Face generate):
// a decode step replays the same kernel sequence, so the kernel-name sequence
// is periodic with the step as its period. The period is the lag at which the
// sequence best matches itself (candidates: the usual gap between repeats of
// each kernel name; the smallest lag within a small tolerance of the best
// match wins, so a step is not mistaken for two, unless a longer lag removes
// at least half of its mismatches: then it was a layer inside the step). Steps begin at the position
// of the period with the highest boundary score: the caller scores a kernel
// by the idle gap before it, and far higher when a device-to-host copy (the
// engine reading the step's tokens back) comes just before it.
// Read-backs are also the evidence of what a step is: when they recur at a lag
// shorter than the period found (a decode step inside a whole `generate` call
// that a process makes several times), that lag is the step, and the steps
// begin at the read-backs, so each call's prefill, of its own length, is a step
// apart.
// Without read-backs, a period whose repeats are alike (a step of N identical
// layers and nothing else) is a layer: when the boundary scores (the host's
// synchronize gaps) recur at a multiple of it, or at a lag they suggest, that
// the names match as well, the shortest such lag whose boundaries are
// consistently the strongest is the step (the longest repeat that explains
// the sequence; docs/findings.md "Steps").
#pragma once

#include <cstdint>
#include <vector>

#include "model/string_table.h"

namespace cuprobe {

// The boundary score the caller adds where a device-to-host copy comes just before a kernel: it outweighs any idle
// gap (ns), and taking it off leaves the gap.
inline constexpr double kReadBackScore = 1e15;
// ...and where the host's synchronizing call returned before it was launched (a multiple of it divides the other).
inline constexpr double kSynchronizeScore = 1e12;

struct PeriodicSteps {
  std::int64_t period = 0;          // kernels per step; 0 = no periodicity found
  double match = 0;                 // fraction of positions matching one period later
  std::vector<std::size_t> starts;  // index of each step's first kernel
  bool by_read_back = false;        // the steps begin at the read-backs, which recur at the period
  bool by_boundaries = false;       // the names' period was a layer: the host's gaps recur at a multiple of it
  bool read_backs_inside = false;   // read-backs recur inside each step (one per layer): the host's gaps cut it
};

// names: kernel names in launch order; boundary_score[i]: how likely a step starts at kernel i;
// read_back[i]: a device-to-host copy comes just before kernel i (empty: none known).
PeriodicSteps find_periodic_steps(const std::vector<StringId>& names, const std::vector<double>& boundary_score,
                                  const std::vector<bool>& read_back = {});

}  // namespace cuprobe
