// `cuprobe diff A B`: did the change help, and what moved? Both sides are
// analyzed the same way; times are compared per step (GPU busy time per step,
// averaged over ranks) when both sides have steps, else per trace.
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

struct DiffReport {
  std::string basis;                                 // "step" or "trace"
  double a_ms = 0, b_ms = 0;                         // GPU time per step (or per trace)
  double a_wall_ms = 0, b_wall_ms = 0;               // step time (CPU span) or trace window
  std::vector<DiffChange> changes;                   // largest |delta| first
  std::vector<Finding> appeared, disappeared, kept;  // kept: B's version
  double ratio() const { return b_ms > 0 ? a_ms / b_ms : 0; }
  double wall_ratio() const { return b_wall_ms > 0 ? a_wall_ms / b_wall_ms : 0; }
};

DiffReport diff_reports(const AnalyzeReport& a, const AnalyzeReport& b);

}  // namespace cuprobe
