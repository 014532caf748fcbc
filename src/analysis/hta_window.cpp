#include "analysis/hta_window.h"

#include <algorithm>
#include <set>

namespace cuprobe {

std::optional<HtaWindowed> hta_window(const Profile& profile, const LaunchLinks& links, const StepAssignment& steps,
                                      HtaWindow window, HtaWindowInfo& info) {
  info = HtaWindowInfo{};
  info.keep_all = window == HtaWindow::kAll;
  // HTA: symbol ids of the names containing "ProfilerStep"; under two, it keeps the last step (one iteration).
  std::set<StringId> step_names;
  std::int64_t last = -1;
  TimeNs first_event = INT64_MAX;
  for (std::size_t i = 0; i < profile.cpu.size(); ++i) {
    const CpuRange& r = profile.cpu[i];
    first_event = std::min(first_event, r.start);
    if (profile.name_of(r.name).find("ProfilerStep") == std::string_view::npos) continue;
    step_names.insert(r.name);
    if (last < 0 || r.start >= profile.cpu[static_cast<std::size_t>(last)].start) last = static_cast<std::int64_t>(i);
  }
  if (info.keep_all || step_names.size() < 2) return std::nullopt;
  const CpuRange& last_step = profile.cpu[static_cast<std::size_t>(last)];
  const TimeNs cut = last_step.start;
  if (!profile.gpu.empty()) first_event = std::min(first_event, profile.gpu.front().start);
  info.cut = true;
  info.last_step = std::string(profile.name_of(last_step.name));
  info.cut_at_ms = static_cast<double>(cut - first_event) / 1e6;

  HtaWindowed w;
  w.profile.file = profile.file;
  w.profile.source = profile.source;
  w.profile.rank = profile.rank;
  w.profile.devices = profile.devices;
  // StringTable is not copyable: interning every string in id order gives each the same id.
  for (StringId id = 1; id < profile.strings.size(); ++id) w.profile.strings.intern(profile.strings.view(id));
  // Profile::cpu is sorted by start: the kept ranges are a prefix.
  auto end =
      std::partition_point(profile.cpu.begin(), profile.cpu.end(), [cut](const CpuRange& r) { return r.start < cut; });
  w.profile.cpu.assign(profile.cpu.begin(), end);
  w.steps.summary = steps.summary;
  w.steps.placed_by_time = steps.placed_by_time;
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    std::int32_t call = links.launch[i];
    // HTA keeps a GPU activity only when a kept CPU event carries its correlation id.
    if (call < 0 || profile.cpu[static_cast<std::size_t>(call)].start >= cut) {
      ++info.activities_left_out;
      info.gpu_ms_left_out += static_cast<double>(profile.gpu[i].duration()) / 1e6;
      continue;
    }
    w.profile.gpu.push_back(profile.gpu[i]);
    w.steps.activity_step.push_back(i < steps.activity_step.size() ? steps.activity_step[i] : -1);
  }
  return w;
}

}  // namespace cuprobe
