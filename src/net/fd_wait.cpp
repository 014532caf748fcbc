#include "net/fd_wait.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>

#include "common/clock.h"

namespace cuprobe {

bool wait_for_fd(int fd, short events, std::int64_t deadline_ns) {
  while (true) {
    std::int64_t left_ms = (deadline_ns - mono_ns()) / 1'000'000;
    if (left_ms <= 0) return false;
    pollfd p{fd, events, 0};
    int rc = poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left_ms, 1000)));
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) return false;
  }
}

}  // namespace cuprobe
