// Waiting on one socket until a deadline (CLOCK_MONOTONIC ns), for the one-off
// exchanges (http_fetch, grpc_unary_call) that must never hang on a stuck peer.
#pragma once

#include <cstdint>

namespace cuprobe {

// Waits for `events` (POLLIN, POLLOUT) on fd until `deadline_ns`; false on timeout or a poll
// error.
bool wait_for_fd(int fd, short events, std::int64_t deadline_ns);

}  // namespace cuprobe
