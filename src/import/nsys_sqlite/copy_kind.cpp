#include "import/nsys_sqlite/copy_kind.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "import/nsys_sqlite/export_columns.h"
#include "import/sqlite_row.h"

namespace cuprobe {
namespace {

// Upper case without '-', '_', ' ' and a CUDA_MEMCPY_KIND_ prefix: "Host-to-Device" -> "HOSTTODEVICE".
std::string squeezed(std::string_view name) {
  constexpr std::string_view kPrefix = "CUDA_MEMCPY_KIND_";
  if (name.starts_with(kPrefix)) name.remove_prefix(kPrefix.size());
  std::string out;
  for (char c : name) {
    if (c != '-' && c != '_' && c != ' ') out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace

std::optional<MemcpyKind> copy_kind_from_name(std::string_view name) {
  static const std::pair<std::string_view, MemcpyKind> kNames[] = {
      {"HTOD", MemcpyKind::kHtoD},           {"HOSTTODEVICE", MemcpyKind::kHtoD},  {"HTOA", MemcpyKind::kHtoD},
      {"HOSTTOARRAY", MemcpyKind::kHtoD},    {"DTOH", MemcpyKind::kDtoH},          {"DEVICETOHOST", MemcpyKind::kDtoH},
      {"ATOH", MemcpyKind::kDtoH},           {"ARRAYTOHOST", MemcpyKind::kDtoH},   {"DTOD", MemcpyKind::kDtoD},
      {"DEVICETODEVICE", MemcpyKind::kDtoD}, {"ATOA", MemcpyKind::kDtoD},          {"ARRAYTOARRAY", MemcpyKind::kDtoD},
      {"ATOD", MemcpyKind::kDtoD},           {"ARRAYTODEVICE", MemcpyKind::kDtoD}, {"DTOA", MemcpyKind::kDtoD},
      {"DEVICETOARRAY", MemcpyKind::kDtoD},  {"HTOH", MemcpyKind::kHtoH},          {"HOSTTOHOST", MemcpyKind::kHtoH},
      {"PTOP", MemcpyKind::kPtoP},           {"PEERTOPEER", MemcpyKind::kPtoP},    {"UNKNOWN", MemcpyKind::kUnknown},
  };
  std::string key = squeezed(name);
  for (const auto& [n, kind] : kNames) {
    if (key == n) return kind;
  }
  return std::nullopt;
}

std::optional<MemcpyKind> copy_kind_from_cupti(std::int64_t value) {
  // CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN = 0, HTOD, DTOH, HTOA, ATOH, ATOA, ATOD, DTOA, DTOD, HTOH, PTOP = 10.
  static constexpr MemcpyKind kByValue[] = {MemcpyKind::kUnknown, MemcpyKind::kHtoD, MemcpyKind::kDtoH,
                                            MemcpyKind::kHtoD,    MemcpyKind::kDtoH, MemcpyKind::kDtoD,
                                            MemcpyKind::kDtoD,    MemcpyKind::kDtoD, MemcpyKind::kDtoD,
                                            MemcpyKind::kHtoH,    MemcpyKind::kPtoP};
  if (value < 0 || value >= static_cast<std::int64_t>(std::size(kByValue))) return std::nullopt;
  return kByValue[value];
}

CopyKinds::CopyKinds(SqliteDb& db, Profile& p, const std::string& file) {
  const std::string table = "ENUM_CUDA_MEMCPY_OPER";
  if (!has_export_table(db, table, file)) return;
  static constexpr ExportColumn kColumns[] = {{"id", true}, {"name"}, {"label"}};
  auto s = db.prepare(select_export_columns(db, table, kColumns, p, file));
  while (s.step()) {
    SqliteRow row(s, "ENUM_CUDA_MEMCPY_OPER");
    std::int64_t id = row.integer(0, "id");
    if (!row.keep(p)) continue;
    std::optional<MemcpyKind> kind;
    if (!s.is_null(1)) kind = copy_kind_from_name(s.text(1));
    if (!kind && !s.is_null(2)) kind = copy_kind_from_name(s.text(2));
    if (kind) by_id_[id] = *kind;
  }
}

MemcpyKind CopyKinds::operator()(std::int64_t value, Profile& p) const {
  // The enum table's names first; its ids are CUPTI's values, which cover what it leaves out.
  if (auto it = by_id_.find(value); it != by_id_.end()) return it->second;
  if (auto kind = copy_kind_from_cupti(value)) return *kind;
  p.stats.add(ImportStat::kValueOutOfRange, "CUPTI_ACTIVITY_KIND_MEMCPY.copyKind = " + std::to_string(value));
  return MemcpyKind::kUnknown;
}

}  // namespace cuprobe
