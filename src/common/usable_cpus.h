// usable_cpus: how many CPUs this process may run on (its affinity mask, which taskset, a cpuset, Slurm's
// or Kubernetes' CPU pinning narrow), not how many the machine has (std::thread::hardware_concurrency).
#pragma once

namespace cuprobe {

// At least 1; the machine's count where the mask cannot be read.
unsigned usable_cpus();

}  // namespace cuprobe
