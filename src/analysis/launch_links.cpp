#include "analysis/launch_links.h"

#include "analysis/correlation_index.h"

namespace cuprobe {

LaunchLinks link_launches(const Profile& profile) {
  LaunchLinks links;
  links.launch.assign(profile.gpu.size(), -1);
  std::vector<std::int64_t> ids;
  ids.reserve(profile.gpu.size());
  for (const GpuActivity& a : profile.gpu) {
    if (a.correlation >= 0) ids.push_back(a.correlation);
  }
  if (ids.empty()) return links;
  const CorrelationIndex wanted(std::move(ids));
  std::vector<std::int32_t> call_of_slot(wanted.size(), -1);
  for (std::size_t j = 0; j < profile.cpu.size(); ++j) {
    const CpuRange& r = profile.cpu[j];
    if (r.kind != CpuRangeKind::kRuntime || r.correlation < 0) continue;
    std::int32_t slot = wanted.slot(r.correlation);
    if (slot >= 0 && call_of_slot[static_cast<std::size_t>(slot)] < 0)
      call_of_slot[static_cast<std::size_t>(slot)] = static_cast<std::int32_t>(j);
  }
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (profile.gpu[i].correlation < 0) continue;
    std::int32_t call = call_of_slot[static_cast<std::size_t>(wanted.slot(profile.gpu[i].correlation))];
    links.launch[i] = call;
    if (call >= 0) ++links.linked;
  }
  return links;
}

}  // namespace cuprobe
