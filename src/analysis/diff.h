// `cuprobe diff A B`: did the change help, and what moved? Both sides are
// analyzed the same way; times are compared per step when both sides have
// steps, else per trace. Per step, every figure is the median over steps
// (GPU busy, step time, each category's and each kernel's time), averaged over
// ranks: a mean would let one warm-up step (a 500 ms collective wait) outweigh
// the hundred steps beside it, and the headline and the rows must agree.
#pragma once

#include <string>
#include <vector>

#include "analysis/analysis_result.h"

namespace cuprobe {

struct DiffChange {
  std::string kind;  // "category" or "kernel"
  std::string name;
  std::string category;  // for kernels
  double a_ms = 0, b_ms = 0;
  double delta_ms() const { return b_ms - a_ms; }
};

// HTA's communication overlap of one rank on both sides (RankAnalysis::hta_overlap, computed by analyze: the same
// figures, never recomputed here). Totals over each side's HTA window, not per step: HTA's figures.
struct DiffHtaRank {
  std::string rank;                   // "0"; one with one of different ids: "3 (A) / 1 (B)"
  bool a_has = false, b_has = false;  // the side ran NCCL kernels (HTA's communication kernels)
  HtaCommOverlap a, b;
  HtaWindowInfo a_window, b_window;
};

struct DiffReport {
  std::string basis;                    // "step" or "trace"
  double a_ms = 0, b_ms = 0;            // GPU time per step (or per trace)
  double a_wall_ms = 0, b_wall_ms = 0;  // step time (GPU clock, StepSummary::median_ms) or trace window
  // How ranks were paired: "by rank id" (both sides several ranks), "one with one" (one rank each),
  // "averaged" (different rank counts, --force): findings are matched by id and the paired rank.
  std::string pairing;
  std::string pairing_note;                          // "rank 3 (A) with rank 1 (B)", ranks without a partner, ...
  std::vector<DiffChange> changes;                   // largest |delta| first
  std::vector<Finding> appeared, disappeared, kept;  // kept: B's version
  // Paired ranks where either side ran NCCL kernels, in A's rank order; empty when neither did.
  std::vector<DiffHtaRank> hta;
  double ratio() const { return b_ms > 0 ? a_ms / b_ms : 0; }
  double wall_ratio() const { return b_wall_ms > 0 ? a_wall_ms / b_wall_ms : 0; }
  std::size_t a_ranks = 0, b_ranks = 0;
};

DiffReport diff_reports(const AnalyzeReport& a, const AnalyzeReport& b);

// `--fail-if-slower PCT`: trips when B is worse than A by more than limit_pct.
struct DiffGate {
  std::string metric;  // "gpu" (GPU time per step) or "step" (step time)
  double limit_pct = 0;
  double a_ms = 0, b_ms = 0;
  double change_pct = 0;  // (B - A) / A * 100; positive: B slower
  bool tripped = false;
};

// Throws Error when A has no time to compare against.
DiffGate evaluate_gate(const DiffReport& d, const std::string& metric, double limit_pct);

}  // namespace cuprobe
