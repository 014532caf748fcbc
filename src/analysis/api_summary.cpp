#include "analysis/api_summary.h"

#include <algorithm>

#include "analysis/distribution.h"

namespace cuprobe {

std::vector<ApiRow> api_summary(const Profile& profile) {
  std::vector<std::int32_t> group_of_id(profile.strings.size(), -1);
  std::vector<StringId> names;
  for (const CpuRange& r : profile.cpu) {
    if (r.kind != CpuRangeKind::kRuntime) continue;
    std::int32_t& g = group_of_id[r.name];
    if (g < 0) {
      g = static_cast<std::int32_t>(names.size());
      names.push_back(r.name);
    }
  }
  GroupedValues durations(names.size());
  for (const CpuRange& r : profile.cpu) {
    if (r.kind == CpuRangeKind::kRuntime) durations.count(static_cast<std::size_t>(group_of_id[r.name]));
  }
  durations.place_all();
  for (const CpuRange& r : profile.cpu) {
    if (r.kind == CpuRangeKind::kRuntime)
      durations.put(static_cast<std::size_t>(group_of_id[r.name]), static_cast<double>(r.end - r.start));
  }
  std::vector<ApiRow> rows;
  for (std::size_t g = 0; g < names.size(); ++g) {
    Distribution d = describe(durations.group(g));
    rows.push_back(ApiRow{.name = std::string(profile.name_of(names[g])),
                          .calls = d.count,
                          .total_ms = d.sum / 1e6,
                          .mean_us = d.mean / 1e3,
                          .median_us = d.median / 1e3,
                          .max_us = d.max / 1e3});
  }
  std::sort(rows.begin(), rows.end(), [](const ApiRow& a, const ApiRow& b) {
    return a.total_ms != b.total_ms ? a.total_ms > b.total_ms : a.name < b.name;
  });
  return rows;
}

}  // namespace cuprobe
