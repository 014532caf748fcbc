// One connection per request in flight needs one file descriptor each: the
// soft RLIMIT_NOFILE (often 1024, sometimes 64) is raised toward the hard limit
// before the load starts, instead of losing requests to EMFILE.
#pragma once

#include <cstdint>
#include <string>

namespace cuprobe {

// Descriptors the load loop needs besides its connections (epoll, timer,
// stdio, profiler and readiness calls, the counter sampler).
constexpr std::uint64_t kDescriptorHeadroom = 64;

// Raises the soft limit to at least `needed`; needed == 0 means "as high as
// allowed" (an uncapped open loop). Returns "" on success, else why not (the
// hard limit is lower): "need N open files, the hard limit is M".
std::string raise_descriptor_limit(std::uint64_t needed);

}  // namespace cuprobe
