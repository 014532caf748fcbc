#include "import/kineto_json/correlation_by_process.h"

#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace cuprobe {
namespace {

constexpr std::int64_t kShared = INT64_MIN;  // an id more than one process used

using IdOwner = std::unordered_map<std::int64_t, std::int64_t>;  // id -> pid, or kShared

// The owner of each id among the CPU ranges `has_id` selects; the first id two processes share, if any.
template <typename Get>
IdOwner owners(const Profile& p, Get id_of, std::optional<std::int64_t>& first_shared) {
  IdOwner owner;
  for (const auto& r : p.cpu) {
    std::int64_t id = id_of(r);
    if (id < 0) continue;
    auto [it, inserted] = owner.emplace(id, r.pid);
    if (!inserted && it->second != r.pid && it->second != kShared) {
      it->second = kShared;
      if (!first_shared) first_shared = id;
    }
  }
  return owner;
}

class Renumbering {
 public:
  std::int64_t operator()(std::int64_t pid, std::int64_t id) {
    auto [it, inserted] = ids_.try_emplace({pid, id}, next_);
    if (inserted) ++next_;
    return it->second;
  }

 private:
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> ids_;
  std::int64_t next_ = 0;
};

using Votes = std::map<std::int32_t, std::map<std::int64_t, std::int64_t>>;  // device -> pid -> activities

// Each device's process: the one most of its voted activities came from.
std::map<std::int32_t, std::int64_t> majority_by_device(const Votes& votes) {
  std::map<std::int32_t, std::int64_t> device_pid;
  for (const auto& [device, counts] : votes) {
    std::int64_t best = -1, best_count = 0;
    for (const auto& [pid, n] : counts) {
      if (n > best_count) best = pid, best_count = n;
    }
    device_pid[device] = best;
  }
  return device_pid;
}

std::int32_t as_gpu_pid(std::int64_t pid) {
  return pid >= 0 && pid <= std::numeric_limits<std::int32_t>::max() ? static_cast<std::int32_t>(pid) : -1;
}

// Each device's process: the one its activities' correlation ids point to most often. An id one process used
// points to it; a shared id points to the one process that had launched it before the activity started (a kernel
// never runs before its launch), when only one had. Devices left without a process (every id shared, processes in
// lockstep) are paired with the processes left without a device when they are as many: one alone is certain; several
// are paired in order (device index with pid, as torchrun starts its local ranks), counted (gpu_process_by_order).
std::map<std::int32_t, std::int64_t> processes_of_devices(Profile& p, const IdOwner& correlation_owner) {
  std::unordered_map<std::int64_t, std::vector<std::pair<std::int64_t, TimeNs>>> launches;  // shared id -> (pid, start)
  std::set<std::int64_t> launching;
  for (const auto& r : p.cpu) {
    if (r.kind != CpuRangeKind::kRuntime || r.correlation < 0) continue;
    launching.insert(r.pid);
    if (correlation_owner.at(r.correlation) == kShared) launches[r.correlation].emplace_back(r.pid, r.start);
  }
  Votes votes;
  std::set<std::int32_t> devices;
  for (const auto& a : p.gpu) {
    devices.insert(a.device);
    if (a.correlation < 0) continue;
    auto it = correlation_owner.find(a.correlation);
    if (it == correlation_owner.end()) continue;
    if (it->second != kShared) {
      ++votes[a.device][it->second];
      continue;
    }
    std::int64_t before = -1, candidates = 0;
    for (const auto& [pid, start] : launches[a.correlation]) {
      if (start <= a.start) before = pid, ++candidates;
    }
    if (candidates == 1) ++votes[a.device][before];
  }
  std::map<std::int32_t, std::int64_t> device_pid = majority_by_device(votes);
  for (const auto& [device, pid] : device_pid) {
    devices.erase(device);
    launching.erase(pid);
  }
  if (devices.empty() || devices.size() != launching.size()) return device_pid;
  auto pid = launching.begin();
  for (std::int32_t device : devices) device_pid[device] = *pid++;
  if (devices.size() > 1) {
    p.stats.add(ImportStat::kGpuProcessByOrder, "GPU " + std::to_string(*devices.begin()), {},
                static_cast<std::int64_t>(devices.size()));
  }
  return device_pid;
}

// Renumbers correlation and External ids per process where processes share them (ids unique afterwards).
void renumber_shared_ids(Profile& p) {
  std::optional<std::int64_t> shared_correlation, shared_external;
  IdOwner correlation_owner = owners(
      p, [](const CpuRange& r) { return r.kind == CpuRangeKind::kRuntime ? r.correlation : -1; }, shared_correlation);
  if (!shared_correlation) return;  // several processes, but no id repeated: every link is already right
  IdOwner external_owner = owners(
      p, [](const CpuRange& r) { return r.external_id; }, shared_external);

  std::map<std::int32_t, std::int64_t> device_pid = processes_of_devices(p, correlation_owner);
  auto process_of = [&](const GpuActivity& a, const IdOwner& owner, std::int64_t id) {
    auto it = owner.find(id);
    if (it != owner.end() && it->second != kShared) return it->second;
    auto d = device_pid.find(a.device);
    return d != device_pid.end() ? d->second : kShared;  // no process known: linked to none
  };
  Renumbering correlations, externals;
  for (auto& a : p.gpu) {
    if (a.correlation >= 0)
      a.correlation = correlations(process_of(a, correlation_owner, a.correlation), a.correlation);
    if (a.external_id >= 0) a.external_id = externals(process_of(a, external_owner, a.external_id), a.external_id);
  }
  for (auto& r : p.cpu) {
    if (r.correlation >= 0) r.correlation = correlations(r.pid, r.correlation);
    if (r.external_id >= 0) r.external_id = externals(r.pid, r.external_id);
  }
  std::int64_t shared = 0;
  for (const auto& [id, owner] : correlation_owner) shared += owner == kShared;
  p.stats.add(ImportStat::kCorrelationPerProcess, "correlation " + std::to_string(*shared_correlation), {}, shared);
}

// Each GPU activity's process: its launch call's; without one in the trace, its device's (the process most of the
// device's launched activities came from). Activities of a device no launch explains stay unknown (-1), and are
// counted when the file holds several processes.
void set_launching_processes(Profile& p, const std::set<std::int64_t>& launching) {
  if (launching.size() == 1) {
    std::int32_t pid = as_gpu_pid(*launching.begin());
    for (auto& a : p.gpu) a.pid = pid;
    return;
  }
  std::unordered_map<std::int64_t, std::int64_t> launcher;  // ids are unique per process by now
  for (const auto& r : p.cpu) {
    if (r.kind == CpuRangeKind::kRuntime && r.correlation >= 0) launcher.emplace(r.correlation, r.pid);
  }
  Votes votes;
  for (auto& a : p.gpu) {
    auto it = a.correlation >= 0 ? launcher.find(a.correlation) : launcher.end();
    if (it == launcher.end()) continue;
    a.pid = as_gpu_pid(it->second);
    ++votes[a.device][it->second];
  }
  std::map<std::int32_t, std::int64_t> device_pid = majority_by_device(votes);
  std::int64_t unknown = 0;
  const GpuActivity* first_unknown = nullptr;
  for (auto& a : p.gpu) {
    if (a.pid >= 0) continue;
    auto d = device_pid.find(a.device);
    if (d != device_pid.end()) a.pid = as_gpu_pid(d->second);
    if (a.pid < 0 && unknown++ == 0) first_unknown = &a;
  }
  if (first_unknown) p.stats.add(ImportStat::kGpuProcessUnknown, p.name_of(first_unknown->name), {}, unknown);
}

}  // namespace

void link_ids_per_process(Profile& p) {
  std::set<std::int64_t> launching;  // processes that made runtime calls
  std::int64_t last = -1;
  for (const auto& r : p.cpu) {
    if (r.kind != CpuRangeKind::kRuntime || r.correlation < 0 || (r.pid == last && !launching.empty())) continue;
    launching.insert(r.pid);
    last = r.pid;
  }
  if (launching.empty()) return;  // no launches: the processes of the GPU work are unknown
  if (launching.size() > 1) renumber_shared_ids(p);
  set_launching_processes(p, launching);
}

}  // namespace cuprobe
