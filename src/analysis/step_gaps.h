// The GPU's idle gaps inside steps, each with what came just before it on the GPU
// and what the host was doing during it: the evidence of the findings about the
// host stopping the GPU mid-step (findings_patterns.h: a read-back inside the layer
// loop, host work on the critical path, allocation calls, pageable copies).
// A gap is idle time of all the rank's GPUs between two activities of the same
// step; the idle between steps (the loop's own read-back, the next step's launch)
// is not one of them.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "analysis/launch_context.h"
#include "analysis/step_detection.h"
#include "model/profile.h"

namespace cuprobe {

enum class GapCause : unsigned char {
  kReadBack,    // it follows a device-to-host copy (.item(), .cpu(), torch.where): the host waited for the GPU
  kAllocation,  // a cudaMalloc/cudaFree (torch.cuda.empty_cache, a fresh large tensor) runs during it
  kPageable,    // it follows a host-to-device copy from pageable memory (the host staged it, then launched)
  kOther,       // none of these: the host was busy with its own work (or launching)
};

struct StepGap {
  std::size_t step = 0;
  TimeNs start = 0, end = 0;
  std::size_t after = 0;   // profile.gpu index of the activity that ended last before it
  std::size_t before = 0;  // ... and of the one that ends it
  GapCause cause = GapCause::kOther;
  // The GPU waited for a launch: the call launching `before` returned after the gap began (nothing was queued).
  bool starved = false;
  // The thread that launches next ran operators or runtime calls for at least half of it: the framework's own
  // overhead (an eager model's Python and dispatch), which a CUDA graph removes, not the host's own work. False
  // where the trace has no launch calls (it cannot say).
  bool framework = false;
  double ms() const { return static_cast<double>(end - start) / 1e6; }
};

// A runtime call's name without the API version `cuprobe record --api` gives it (cudaMalloc_v3020 -> cudaMalloc).
std::string_view runtime_base_name(std::string_view name);
// cudaMalloc/cudaFree and their driver, async and HIP kinds.
bool allocation_call(std::string_view name);

// Host-to-device copy from pageable memory: Kineto names it "Memcpy HtoD (Pageable -> Device)"; a run file, which
// does not say, by a rate below kPageableCopyGBps (thresholds.h).
bool pageable_host_copy(const Profile& profile, const GpuActivity& a);

// Every gap inside a step (steps.activity_step), in time order. Empty without steps. A gap the GPU spends starved
// right after a gap of a cause (the host still catching up: launching what it would have queued ahead) takes that
// cause too; `launches` tells starved gaps (without launch calls, only the gap itself has the cause).
std::vector<StepGap> step_gaps(const Profile& profile, const StepAssignment& steps, const LaunchContext& launches);

}  // namespace cuprobe
