// Where on the CPU a GPU activity came from: its launch call and the framework
// operators around that call (e.g. aten::copy_ under aten::to).
#pragma once

#include <string>
#include <unordered_map>

#include "model/profile.h"

namespace cuprobe {

class LaunchContext {
 public:
  explicit LaunchContext(const Profile& profile);
  const CpuRange* launch_of(std::int64_t correlation) const;
  // "aten::copy_ (in aten::to)": innermost and outermost operator around the
  // launch, or "" when the trace has no operators there.
  std::string operator_path(std::int64_t correlation) const;

 private:
  const Profile& profile_;
  std::unordered_map<std::int64_t, const CpuRange*> launches_;
};

}  // namespace cuprobe
