#include "import/split_by_process.h"

#include <algorithm>
#include <set>
#include <string>

namespace cuprobe {

namespace {

const ProcessInfo* find_process(const Profile& p, std::int64_t pid) {
  for (const ProcessInfo& info : p.processes) {
    if (info.pid == pid) return &info;
  }
  return nullptr;
}

// The part of `whole` that process `pid` did: its GPU activity and CPU ranges,
// the counters and devices of the GPUs it used. The file's counts and notices
// stay with the first rank only, so that they are shown and summed once.
Profile part_of(const Profile& whole, std::int64_t pid, bool first) {
  Profile q;
  q.file = whole.file + " (pid " + std::to_string(pid) + ")";
  q.source = whole.source;
  for (StringId id = 1; id < whole.strings.size(); ++id) q.strings.intern(whole.strings.view(id));  // same ids
  q.metadata = whole.metadata;
  q.complete = whole.complete;
  if (const ProcessInfo* info = find_process(whole, pid)) q.processes.push_back(*info);
  std::set<std::int32_t> devices;
  for (const GpuActivity& a : whole.gpu) {
    if (a.pid != pid) continue;
    q.gpu.push_back(a);
    devices.insert(a.device);
  }
  for (const CpuRange& r : whole.cpu) {
    if (r.pid == pid) q.cpu.push_back(r);
  }
  q.op_inputs = whole.op_inputs;  // the operators' shapes (CpuRange::inputs), by the same indices
  for (const CounterSample& s : whole.counters) {
    if (devices.count(s.device)) q.counters.push_back(s);
  }
  for (const DeviceInfo& d : whole.devices) {
    if (devices.count(d.id)) q.devices.push_back(d);
  }
  if (first) {
    q.stats = whole.stats;
    q.notices = whole.notices;
  }
  q.stats.events = static_cast<std::int64_t>(q.gpu.size() + q.cpu.size() + q.counters.size());
  return q;
}

}  // namespace

std::vector<Profile> split_by_process(Profile p) {
  std::set<std::int64_t> pids;
  std::int32_t last = -1;
  for (const GpuActivity& a : p.gpu) {
    if (a.pid >= 0 && a.pid != last) pids.insert(a.pid);
    last = a.pid;
  }
  if (pids.size() < 2) {
    if (pids.size() == 1 && !p.rank) {
      if (const ProcessInfo* info = find_process(p, *pids.begin())) {
        p.rank = info->rank;
        p.world_size = info->world_size;
      }
    }
    std::vector<Profile> one;
    one.push_back(std::move(p));
    return one;
  }
  // Ranked processes first, by rank; the others after them, by pid.
  std::vector<std::int64_t> order(pids.begin(), pids.end());
  auto rank_of = [&](std::int64_t pid) {
    const ProcessInfo* info = find_process(p, pid);
    return info && info->rank ? *info->rank : -1;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    int ra = rank_of(a), rb = rank_of(b);
    if ((ra < 0) != (rb < 0)) return ra >= 0;
    return ra < rb;
  });
  std::set<int> taken;
  for (std::int64_t pid : order) {
    if (rank_of(pid) >= 0) taken.insert(rank_of(pid));
  }
  std::vector<Profile> parts;
  std::set<int> assigned;
  int next_free = 0;
  for (std::int64_t pid : order) {
    Profile q = part_of(p, pid, parts.empty());
    int rank = rank_of(pid);
    if (rank < 0 || assigned.count(rank)) {  // unranked, or a second claim: the next rank nobody declared
      while (taken.count(next_free) || assigned.count(next_free)) ++next_free;
      rank = next_free;
    }
    assigned.insert(rank);
    q.rank = rank;
    const ProcessInfo* info = find_process(p, pid);
    q.world_size = info && info->world_size ? *info->world_size : static_cast<int>(order.size());
    parts.push_back(std::move(q));
  }
  return parts;
}

}  // namespace cuprobe
