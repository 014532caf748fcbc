// Where the library's worker thread (encoding, sending) runs: when the target
// was pinned to some of the machine's CPUs (taskset, a serving engine's CPU
// binding), on the others, so that recording never takes a core the target
// asked for; and at a lower priority either way. Called by the worker on itself.
#pragma once

#include <sched.h>

#include <string>

namespace cuprobe::inject {

// The CPUs in `allowed` (what the machine offers this process) that are not in
// `target` (the process's own affinity); empty when the target has them all.
cpu_set_t cpus_outside(const cpu_set_t& target, const cpu_set_t& allowed);

// Moves the calling thread off the process's CPUs where others exist, and lowers
// its priority. Returns what it did, for a notice ("" when nothing changed).
std::string move_worker_off_target_cpus();

}  // namespace cuprobe::inject
