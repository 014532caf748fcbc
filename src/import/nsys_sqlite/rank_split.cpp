#include "import/nsys_sqlite/rank_split.h"

#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

namespace cuprobe {
namespace {

using GroupKey = std::pair<std::int32_t, std::int64_t>;  // (GPU, process): ranks ordered by GPU first

struct PairHash {
  std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& k) const {
    return std::hash<std::int64_t>()(k.first) * 1000003u ^ std::hash<std::int64_t>()(k.second);
  }
};

// Names move from the whole export's string table to each rank's own.
class NameMover {
 public:
  NameMover(const Profile& from, Profile& to) : from_(from), to_(to), ids_(from.strings.size(), kUnmapped) {}
  StringId operator()(StringId id) {
    if (id >= ids_.size()) return kNoString;
    if (ids_[id] == kUnmapped) ids_[id] = to_.strings.intern(from_.name_of(id));
    return ids_[id];
  }

 private:
  static constexpr StringId kUnmapped = std::numeric_limits<StringId>::max();
  const Profile& from_;
  Profile& to_;
  std::vector<StringId> ids_;
};

void add_device(Profile& p, std::int64_t pid, std::int32_t device, const ExportGpus& gpus) {
  if (auto d = gpus.find(pid, device)) p.devices.push_back(std::move(*d));
}

}  // namespace

std::vector<Profile> split_by_process_and_gpu(Profile whole, const std::vector<std::int64_t>& gpu_pid,
                                              const ExportGpus& gpus) {
  std::map<GroupKey, std::size_t> groups;
  for (std::size_t i = 0; i < whole.gpu.size(); ++i) groups.emplace(GroupKey{whole.gpu[i].device, gpu_pid[i]}, 0);
  std::vector<Profile> ranks;
  if (groups.size() <= 1) {
    if (!groups.empty()) add_device(whole, groups.begin()->first.second, groups.begin()->first.first, gpus);
    whole.stats.events = static_cast<std::int64_t>(whole.gpu.size() + whole.cpu.size());
    whole.sort_by_time();
    ranks.push_back(std::move(whole));
    return ranks;
  }
  ranks.resize(groups.size());
  std::vector<NameMover> names;
  names.reserve(groups.size());
  std::map<std::int64_t, std::vector<std::size_t>> ranks_of_pid;
  std::size_t n = 0;
  for (auto& [key, index] : groups) {
    index = n++;
    Profile& r = ranks[index];
    const auto [device, pid] = key;
    r.file = whole.file + " (" + (pid >= 0 ? "process " + std::to_string(pid) + ", " : "") + "GPU " +
             std::to_string(device) + ")";
    r.source = whole.source;
    r.rank = static_cast<int>(index);
    r.world_size = static_cast<int>(groups.size());
    r.metadata = whole.metadata;
    r.complete = whole.complete;
    add_device(r, pid, device, gpus);
    names.emplace_back(whole, r);
    ranks_of_pid[pid].push_back(index);
  }
  std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::size_t, PairHash> rank_of_launch;
  for (std::size_t i = 0; i < whole.gpu.size(); ++i) {
    GpuActivity a = whole.gpu[i];
    std::size_t g = groups.at(GroupKey{a.device, gpu_pid[i]});
    a.name = names[g](a.name);
    ranks[g].gpu.push_back(a);
    if (a.correlation >= 0) rank_of_launch.emplace(std::make_pair(gpu_pid[i], a.correlation), g);
  }
  for (const CpuRange& whole_range : whole.cpu) {
    auto place = [&](std::size_t g) {
      CpuRange r = whole_range;
      r.name = names[g](r.name);
      ranks[g].cpu.push_back(r);
    };
    if (whole_range.kind == CpuRangeKind::kRuntime && whole_range.correlation >= 0) {
      auto it = rank_of_launch.find({whole_range.pid, whole_range.correlation});
      if (it != rank_of_launch.end()) {
        place(it->second);
        continue;
      }
    }
    if (whole_range.pid < 0) {
      for (std::size_t g = 0; g < ranks.size(); ++g) place(g);
    } else if (auto it = ranks_of_pid.find(whole_range.pid); it != ranks_of_pid.end()) {
      for (std::size_t g : it->second) place(g);
    }
  }
  ranks.front().stats = whole.stats;
  for (Profile& r : ranks) {
    r.stats.events = static_cast<std::int64_t>(r.gpu.size() + r.cpu.size());
    r.sort_by_time();
  }
  return ranks;
}

}  // namespace cuprobe
