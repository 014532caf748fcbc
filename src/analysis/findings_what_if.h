// The projections behind the findings' what-ifs that need the work per kernel:
// the copies' and casts' bytes, bandwidth and the two fixes of a whole-pool
// cast, and the non-matmul work at its roofline (docs/findings.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/kernel_taxonomy.h"
#include "analysis/kernel_work.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

// What a finding's projection reads: the rank's profile and what was computed from it.
struct WhatIfInputs {
  const Profile& profile;
  const std::vector<KernelClass>& classes;
  const StepAssignment& steps;
  const WorkAttribution& work;
  const RankAnalysis& analysis;

  bool has_steps() const { return !steps.summary.steps.empty(); }
  // The step time the projections start from: the median step, or the whole window without steps.
  double step_ms_now() const;
  // Activity i counts towards "per step" sums (in a step; every activity without steps).
  bool counted(std::size_t i) const;
  double per_step(double total) const;  // a sum over counted activities, per step
};

struct CopyCastWork {
  bool known = false;         // some copy/cast activity has known bytes
  bool casts = false;         // some of them change the dtype
  double bytes_per_step = 0;  // of the copies with known bytes
  double time_ms_per_step = 0;
  double bytes_per_call = 0;                      // the top copy kernel's bytes per call (one layer's cast)
  double calls_per_step = 0;                      // ... and its calls per step
  double tbps = 0;                                // bandwidth reached by the copies with known bytes
  std::optional<double> peak_share;               // of the memory bandwidth peak
  std::optional<double> after_copy_bandwidth_ms;  // the step with the copies at copy bandwidth
  std::optional<double> after_gathered_ms;        // the step with only the gathered entries cast
  double gathered_fraction = 0;                   // of the cast elements that a later gather reads
  std::string gathered_sized_by;                  // what sized that gather (OpWork::sized_by)
  // The GPU time each fix removes, by profile.gpu index (over the trace: the finding's claim).
  std::vector<std::pair<std::size_t, double>> saved_gathered, saved_at_copy;
  std::int64_t beyond_peak_calls = 0;  // copies left out: their kernel's counted work is beyond the device's peak
};

CopyCastWork copy_cast_work(const WhatIfInputs& in, const std::string& top_kernel);

struct RooflineWork {
  // The step with every non-matmul kernel whose work is known at its roofline; none when
  // no such kernel's roofline is known (no shapes, or no peaks).
  std::optional<double> after_ms;
  std::vector<std::pair<std::size_t, double>> saved;  // GPU time removed, by profile.gpu index
  std::int64_t beyond_peak_calls = 0;                 // left out: counted work beyond the device's peak
};

RooflineWork non_matmul_at_roofline(const WhatIfInputs& in);

}  // namespace cuprobe
