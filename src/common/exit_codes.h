// Exit codes shared by every verb (docs/architecture.md, Conventions).
#pragma once

namespace cuprobe {

enum ExitCode : int {
  kExitOk = 0,
  kExitFailed = 1,
  kExitUsage = 2,
  kExitCountersUnavailable = 3,
  kExitThresholdTripped = 4,
};

}  // namespace cuprobe
