// The projections behind the findings' what-ifs that need the work per kernel:
// the copies' and casts' bytes, bandwidth and the two fixes of a whole-pool
// cast, and the non-matmul work at its roofline (docs/findings.md). Without
// operator shapes (run files), the bytes are the DRAM bytes `record` measured
// per kernel. And the floor under every projection: the host's launch time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
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

// What would give a projection the bytes it lacks, for this input kind: torch.profiler's record_shapes for a
// torch trace, DRAM counters for a run file (`cuprobe record` measures them unless --no-counters; a shorter
// --interval where the samples mix the kernels with others), a run file for Nsight Systems and rocprofv3 traces.
// "the trace has no operator shapes (torch.profiler record_shapes=True records them)".
// `kernel`: the finding's top kernel, whose share of the samples it overlaps a run file's advice gives.
std::string what_gives_bytes(const WhatIfInputs& in, std::string_view kernel = {});

// DRAM bytes per second that `record`'s counters measured for each kernel name (KernelWork source "counters":
// measured_bytes.h), for the kernels without work from shapes.
std::unordered_map<std::string_view, double> measured_rates(const WhatIfInputs& in);

struct CopyCastWork {
  bool known = false;         // some copy/cast activity has known bytes
  bool measured = false;      // the bytes are the DRAM bytes record's counters measured (no shapes)
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
  bool measured = false;                              // some kernels' bytes are DRAM bytes counters measured
};

RooflineWork non_matmul_at_roofline(const WhatIfInputs& in);

// What the host needs to launch one step, from the launch calls of the step's GPU work, the median over steps;
// none without steps or without launch calls (a run file recorded without --api).
//  - A run file (`cuprobe record --api`, whose tracing costs the host little): the CPU span from the step's first
//    launch call to the end of its last, less the time calls spent waiting for the GPU (each runtime call counts
//    for at most a typical launch, the 10th percentile of the launch calls: longer is a synchronize, a blocking
//    copy or a full launch queue), and never below its launches times that duration.
//  - Other traces (torch.profiler, whose own work stretches the host's time between launches several-fold): the
//    step's launches times the fastest launch call in the trace. A lower bound: the host needs at least that. The
//    span itself (less waiting) is an upper bound, said beside a projection that falls between the two.
struct HostFloor {
  double ms = 0;
  double launches_per_step = 0;  // median over the steps
  double launch_us = 0;          // the launch duration the floor counts (typical for a span, else the fastest)
  bool from_span = false;        // the CPU span of the launches (run files), else launches x the fastest
  // Not a run file: that span as the profiled trace has it, less waiting (an upper bound: the profiler's own work
  // is in it), said beside a projection below it; 0 for run files.
  double profiled_span_ms = 0;
};

std::optional<HostFloor> host_launch_floor(const WhatIfInputs& in);

// Every projection stops at the host's floor (without launch calls, at the GPU timeline's: gpu_path_saving_ms): a
// finding whose fix leaves the host's launches as they are (FindingClaim::changes_launches false) and projects the step
// below the floor is projected at the floor, its claim capped (FindingClaim::max_gain_ms), and its what-if says so. Run
// once, after every finding is added. Without launch calls the floor is read from the GPU's timeline: an activity that
// started more than kQueuedGapUs after the work before it ended was launched late by the host and starts no earlier
// when that work shrinks; one queued behind it starts as much earlier. The median over the steps of how much earlier
// the step's work then ends, with `saved` (profile.gpu index -> ms less over the trace) taken off.
double gpu_path_saving_ms(const WhatIfInputs& in, const std::vector<std::pair<std::size_t, double>>& saved);

void apply_host_floor(const WhatIfInputs& in, std::vector<Finding>& findings);

}  // namespace cuprobe
