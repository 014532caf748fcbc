#include "inject/worker_placement.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>

namespace cuprobe::inject {
namespace {

// The CPUs of the process's cpuset (cgroup): what any of its threads may use.
cpu_set_t cpuset_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Cpus_allowed_list:", 0) != 0) continue;
    std::size_t i = line.find(':') + 1;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == ',')) ++i;
      if (i >= line.size()) break;
      std::size_t used = 0;
      int lo = std::stoi(line.substr(i), &used);
      i += used;
      int hi = lo;
      if (i < line.size() && line[i] == '-') {
        hi = std::stoi(line.substr(i + 1), &used);
        i += used + 1;
      }
      for (int c = lo; c <= hi && c < CPU_SETSIZE; ++c) CPU_SET(c, &set);
    }
  }
  return set;
}

std::string cpu_list(const cpu_set_t& set) {
  std::string out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    int end = c;
    while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set)) ++end;
    if (!out.empty()) out += ',';
    out += std::to_string(c);
    if (end > c) out += "-" + std::to_string(end);
    c = end;
  }
  return out;
}

}  // namespace

cpu_set_t cpus_outside(const cpu_set_t& target, const cpu_set_t& allowed) {
  cpu_set_t out;
  CPU_ZERO(&out);
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &allowed) && !CPU_ISSET(c, &target)) CPU_SET(c, &out);
  }
  return out;
}

std::string move_worker_off_target_cpus() {
  std::string did;
  // Linux: a thread's nice value is its own (PRIO_PROCESS with the thread id).
  auto tid = static_cast<id_t>(syscall(SYS_gettid));
  if (setpriority(PRIO_PROCESS, tid, 10) == 0) did = "nice 10";
  cpu_set_t target;
  if (sched_getaffinity(0, sizeof target, &target) != 0) return did;
  cpu_set_t others = cpus_outside(target, cpuset_cpus());
  if (CPU_COUNT(&others) == 0) return did;
  if (sched_setaffinity(0, sizeof others, &others) != 0) return did;
  return did + (did.empty() ? "" : ", ") + "CPUs " + cpu_list(others) + " (the target's: " + cpu_list(target) + ")";
}

}  // namespace cuprobe::inject
