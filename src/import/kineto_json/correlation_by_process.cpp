#include "import/kineto_json/correlation_by_process.h"

#include <map>
#include <optional>
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

}  // namespace

void link_ids_per_process(Profile& p) {
  bool several = false;
  std::int64_t first_pid = 0;
  bool any = false;
  for (const auto& r : p.cpu) {
    if (r.kind != CpuRangeKind::kRuntime || r.correlation < 0) continue;
    if (!any) {
      first_pid = r.pid;
      any = true;
    } else if (r.pid != first_pid) {
      several = true;
      break;
    }
  }
  if (!several) return;
  std::optional<std::int64_t> shared_correlation, shared_external;
  IdOwner correlation_owner = owners(
      p, [](const CpuRange& r) { return r.kind == CpuRangeKind::kRuntime ? r.correlation : -1; }, shared_correlation);
  if (!shared_correlation) return;  // several processes, but no id repeated: every link is already right
  IdOwner external_owner = owners(
      p, [](const CpuRange& r) { return r.external_id; }, shared_external);

  // Each device's process: the one whose unambiguous correlation ids its activities carry most often.
  std::map<std::int32_t, std::map<std::int64_t, std::int64_t>> votes;
  for (const auto& a : p.gpu) {
    auto it = correlation_owner.find(a.correlation);
    if (a.correlation >= 0 && it != correlation_owner.end() && it->second != kShared) ++votes[a.device][it->second];
  }
  std::map<std::int32_t, std::int64_t> device_pid;
  for (const auto& [device, counts] : votes) {
    std::int64_t best = -1, best_count = 0;
    for (const auto& [pid, n] : counts) {
      if (n > best_count) best = pid, best_count = n;
    }
    device_pid[device] = best;
  }
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

}  // namespace cuprobe
