#include "analysis/kernel_durations.h"

#include <string_view>
#include <unordered_map>

#include "analysis/distribution.h"

namespace cuprobe {

void fill_kernel_durations(const Profile& profile, std::vector<KernelRow>& rows) {
  std::unordered_map<std::string_view, std::size_t> row_of_name;
  for (std::size_t r = 0; r < rows.size(); ++r) row_of_name.emplace(rows[r].name, r);
  // Each activity's row, through its name's id (one lookup per distinct name).
  std::vector<std::int32_t> row_of_id(profile.strings.size(), -2);  // -2: not looked up yet
  std::vector<std::int32_t> row_of(profile.gpu.size(), -1);
  GroupedValues durations(rows.size());
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    StringId id = profile.gpu[i].name;
    if (id >= row_of_id.size()) continue;
    std::int32_t& row = row_of_id[id];
    if (row == -2) {
      auto it = row_of_name.find(profile.name_of(id));
      row = it == row_of_name.end() ? -1 : static_cast<std::int32_t>(it->second);
    }
    row_of[i] = row;
    if (row >= 0) durations.count(static_cast<std::size_t>(row));
  }
  durations.place_all();
  for (std::size_t i = 0; i < profile.gpu.size(); ++i) {
    if (row_of[i] >= 0)
      durations.put(static_cast<std::size_t>(row_of[i]), static_cast<double>(profile.gpu[i].duration()));
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    Distribution d = describe(durations.group(r));
    KernelRow& k = rows[r];
    k.min_us = d.min / 1e3;
    k.median_us = d.median / 1e3;
    k.p90_us = d.p90 / 1e3;
    k.max_us = d.max / 1e3;
    k.std_us = d.std / 1e3;
  }
}

}  // namespace cuprobe
