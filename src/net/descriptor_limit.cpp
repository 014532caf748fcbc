#include "net/descriptor_limit.h"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>

namespace cuprobe {

std::string raise_descriptor_limit(std::uint64_t needed) {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return std::string("getrlimit(RLIMIT_NOFILE): ") + std::strerror(errno);
  rlim_t target = needed != 0 ? static_cast<rlim_t>(needed) : lim.rlim_max != RLIM_INFINITY ? lim.rlim_max : 1 << 20;
  if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur >= target) return "";
  if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < target) {
    return "need " + std::to_string(needed) + " open files, the hard limit is " + std::to_string(lim.rlim_max);
  }
  lim.rlim_cur = target;
  if (setrlimit(RLIMIT_NOFILE, &lim) != 0) return std::string("setrlimit(RLIMIT_NOFILE): ") + std::strerror(errno);
  return "";
}

}  // namespace cuprobe
