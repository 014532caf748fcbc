#include "analysis/copy_summary.h"

#include <algorithm>

namespace cuprobe {

std::vector<CopyRow> copy_summary(const Profile& profile) {
  // One slot per memcpy direction, the last for memsets.
  constexpr std::size_t kMemsetSlot = enum_count<MemcpyKind>();
  struct Totals {
    std::int64_t count = 0, sized = 0;
    double bytes = 0;
    TimeNs time = 0, sized_time = 0;
  };
  std::vector<Totals> totals(kMemsetSlot + 1);
  for (const GpuActivity& a : profile.gpu) {
    std::size_t slot = 0;
    if (a.kind == GpuActivityKind::kMemcpy)
      slot = static_cast<std::size_t>(a.memcpy_kind);
    else if (a.kind == GpuActivityKind::kMemset)
      slot = kMemsetSlot;
    else
      continue;
    Totals& t = totals[slot];
    ++t.count;
    t.time += a.duration();
    if (a.bytes >= 0) {
      ++t.sized;
      t.bytes += static_cast<double>(a.bytes);
      t.sized_time += a.duration();
    }
  }
  std::vector<CopyRow> rows;
  for (std::size_t s = 0; s < totals.size(); ++s) {
    const Totals& t = totals[s];
    if (t.count == 0) continue;
    rows.push_back(
        CopyRow{.kind = s == kMemsetSlot ? std::string("memset") : std::string(name_of(enum_at<MemcpyKind>(s))),
                .count = t.count,
                .sized = t.sized,
                .bytes = t.bytes,
                .time_ms = static_cast<double>(t.time) / 1e6,
                .gbps = t.sized_time > 0 ? t.bytes / static_cast<double>(t.sized_time) : 0});
  }
  std::sort(rows.begin(), rows.end(), [](const CopyRow& a, const CopyRow& b) {
    return a.time_ms != b.time_ms ? a.time_ms > b.time_ms : a.kind < b.kind;
  });
  return rows;
}

}  // namespace cuprobe
