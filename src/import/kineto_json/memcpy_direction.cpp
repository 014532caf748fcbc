#include "import/kineto_json/memcpy_direction.h"

#include <unordered_map>

namespace cuprobe {

MemcpyKind memcpy_kind_from_name(std::string_view name) {
  for (std::size_t i = 0; i < enum_count<MemcpyKind>(); ++i) {
    MemcpyKind k = enum_at<MemcpyKind>(i);
    if (k != MemcpyKind::kUnknown && name.find(name_of(k)) != std::string_view::npos) return k;
  }
  struct Spelling {
    std::string_view text;
    MemcpyKind kind;
  };
  static constexpr Spelling kSpellings[] = {{"HostToDevice", MemcpyKind::kHtoD},
                                            {"DeviceToHost", MemcpyKind::kDtoH},
                                            {"DeviceToDevice", MemcpyKind::kDtoD},
                                            {"HostToHost", MemcpyKind::kHtoH},
                                            {"Peer", MemcpyKind::kPtoP}};
  for (const auto& s : kSpellings) {
    if (name.find(s.text) != std::string_view::npos) return s.kind;
  }
  return MemcpyKind::kUnknown;
}

void memcpy_kinds_from_launches(Profile& profile) {
  std::unordered_map<std::int64_t, MemcpyKind> wanted;
  for (const auto& a : profile.gpu) {
    if (a.kind == GpuActivityKind::kMemcpy && a.memcpy_kind == MemcpyKind::kUnknown && a.correlation >= 0)
      wanted.emplace(a.correlation, MemcpyKind::kUnknown);
  }
  if (wanted.empty()) return;
  for (const auto& r : profile.cpu) {
    if (r.kind != CpuRangeKind::kRuntime || r.correlation < 0) continue;
    auto it = wanted.find(r.correlation);
    if (it != wanted.end()) it->second = memcpy_kind_from_name(profile.name_of(r.name));
  }
  for (auto& a : profile.gpu) {
    if (a.kind != GpuActivityKind::kMemcpy || a.memcpy_kind != MemcpyKind::kUnknown || a.correlation < 0) continue;
    auto it = wanted.find(a.correlation);
    if (it != wanted.end()) a.memcpy_kind = it->second;
  }
}

}  // namespace cuprobe
