#include "common/usable_cpus.h"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace cuprobe {

unsigned usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());  // more than 1024 CPUs (cpu_set_t's size)
}

}  // namespace cuprobe
