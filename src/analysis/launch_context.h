// Where on the CPU a GPU activity came from: its launch call and the framework
// operators around that call (e.g. aten::copy_ under aten::to).
#pragma once

#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/correlation_index.h"
#include "model/profile.h"

namespace cuprobe {

// Runtime/driver call names, CUDA and HIP alike (cudaLaunchKernel, cuLaunchKernel,
// hipLaunchKernel, hipExtModuleLaunchKernel, hipModuleLaunchKernel, cudaGraphLaunch,
// hipGraphLaunch, ...).
bool is_launch_call(std::string_view name);
bool is_graph_launch_call(std::string_view name);
// Calls that block the CPU until the GPU catches up: *Synchronize (stream, device,
// event) and the synchronous copies (cudaMemcpy, cuMemcpyDtoH, hipMemcpy,
// hipMemcpyWithStream, hipMemcpyDtoH; not the *Async ones).
bool is_synchronizing_call(std::string_view name);

// Calls `fn` for every runtime call whose correlation is in `wanted`, with the operators and
// annotations on its thread that contain it, outermost first. One pass over profile.cpu.
void for_each_launch_with_enclosing(
    const Profile& profile, const CorrelationIndex& wanted,
    const std::function<void(const CpuRange& launch, std::span<const CpuRange* const> enclosing)>& fn);

class LaunchContext {
 public:
  explicit LaunchContext(const Profile& profile);
  const CpuRange* launch_of(std::int64_t correlation) const;
  // "aten::copy_ (in aten::to)": innermost and outermost operator around the
  // launch, or "" when the trace has no operators there.
  std::string operator_path(std::int64_t correlation) const;

 private:
  struct Operators {
    const CpuRange* innermost = nullptr;
    const CpuRange* outermost = nullptr;
  };
  void index_operators() const;

  const Profile& profile_;
  CorrelationIndex correlations_;
  std::vector<const CpuRange*> launches_;  // by slot in correlations_: the first call with that id
  // By slot, the operators around each launch: one pass over the trace on the first operator_path (findings ask
  // for one per step gap, tens of thousands on a long trace).
  mutable std::once_flag operators_indexed_;
  mutable std::vector<Operators> operators_;
};

}  // namespace cuprobe
