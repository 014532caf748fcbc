// The direction of an exported memcpy. CUPTI_ACTIVITY_KIND_MEMCPY.copyKind is
// a CUpti_ActivityMemcpyKind value; the export's ENUM_CUDA_MEMCPY_OPER table
// names each (name CUDA_MEMCPY_KIND_HTOD, label "Host-to-Device"). Arrays are
// device memory: HtoA counts as HtoD, AtoD/DtoA/AtoA as DtoD.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "model/kinds.h"
#include "model/profile.h"
#include "store/sqlite_db.h"

namespace cuprobe {

// From an enum name or label ("CUDA_MEMCPY_KIND_DTOH", "Device-to-Host", "DtoH").
std::optional<MemcpyKind> copy_kind_from_name(std::string_view name);
// From the CUpti_ActivityMemcpyKind value, for exports without the enum table.
std::optional<MemcpyKind> copy_kind_from_cupti(std::int64_t value);

class CopyKinds {
 public:
  // Reads ENUM_CUDA_MEMCPY_OPER when the export has it.
  CopyKinds(SqliteDb& db, Profile& p, const std::string& file);
  // The kind of a copyKind value; unknown values are counted (value_out_of_range).
  MemcpyKind operator()(std::int64_t value, Profile& p) const;

 private:
  std::unordered_map<std::int64_t, MemcpyKind> by_id_;
};

}  // namespace cuprobe
