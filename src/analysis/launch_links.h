// The runtime call that launched each GPU activity, found once by correlation id and
// shared by the analyses that need the launch time (idle time, launch delays,
// annotations, queue length).
#pragma once

#include <cstdint>
#include <vector>

#include "model/profile.h"

namespace cuprobe {

struct LaunchLinks {
  std::vector<std::int32_t> launch;  // per Profile::gpu index: index into Profile::cpu, -1 without a launch call
  std::int64_t linked = 0;           // activities with a launch call
};

// A runtime/driver call (CpuRangeKind::kRuntime) whose correlation id an activity carries; the first such call
// when several carry it.
LaunchLinks link_launches(const Profile& profile);

}  // namespace cuprobe
