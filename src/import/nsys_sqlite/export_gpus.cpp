#include "import/nsys_sqlite/export_gpus.h"

#include "import/nsys_sqlite/export_columns.h"
#include "import/nsys_sqlite/global_id.h"
#include "import/sqlite_row.h"

namespace cuprobe {

ExportGpus::ExportGpus(SqliteDb& db, Profile& p, const std::string& file) {
  if (has_export_table(db, "TARGET_INFO_GPU", file)) {
    static constexpr ExportColumn kColumns[] = {{"id", true},
                                                {"name"},
                                                {"smCount"},
                                                {"computeMajor|computeCapabilityMajor"},
                                                {"computeMinor|computeCapabilityMinor"},
                                                {"totalMemory"}};
    auto s = db.prepare(select_export_columns(db, "TARGET_INFO_GPU", kColumns, p, file));
    while (s.step()) {
      SqliteRow row(s, "TARGET_INFO_GPU");
      std::int64_t id = row.integer(0, "id");
      DeviceInfo d;
      d.name = s.is_null(1) ? std::string() : row.text(1, p);
      d.sm_count = row.int32_or(2, "smCount", 0);
      d.compute_major = row.int32_or(3, "computeMajor", 0);
      d.compute_minor = row.int32_or(4, "computeMinor", 0);
      d.memory_bytes = row.integer_or(5, "totalMemory", 0);
      if (row.keep(p)) gpus_[id] = std::move(d);
    }
  }
  if (has_export_table(db, "TARGET_INFO_CUDA_DEVICE", file)) {
    static constexpr ExportColumn kColumns[] = {{"gpuId", true}, {"cudaId", true}, {"pid"}};
    auto s = db.prepare(select_export_columns(db, "TARGET_INFO_CUDA_DEVICE", kColumns, p, file));
    while (s.step()) {
      SqliteRow row(s, "TARGET_INFO_CUDA_DEVICE");
      std::int64_t gpu = row.integer(0, "gpuId");
      std::int32_t cuda = row.int32_or(1, "cudaId", -1);
      std::int64_t pid = row.integer_or(2, "pid", -1);
      if (!row.keep(p)) continue;
      if (pid > 0xFFFFFF) pid = pid_of_global_id(pid);  // a globalPid
      gpu_of_.emplace(std::make_pair(pid, cuda), gpu);
      gpu_of_.emplace(std::make_pair(std::int64_t{-1}, cuda), gpu);
    }
  } else {
    for (const auto& [id, d] : gpus_) {
      if (id >= INT32_MIN && id <= INT32_MAX)
        gpu_of_.emplace(std::make_pair(std::int64_t{-1}, static_cast<std::int32_t>(id)), id);
    }
  }
}

std::optional<DeviceInfo> ExportGpus::find(std::int64_t pid, std::int32_t cuda_id) const {
  auto it = gpu_of_.find({pid, cuda_id});
  if (it == gpu_of_.end()) it = gpu_of_.find({-1, cuda_id});
  if (it == gpu_of_.end()) return std::nullopt;
  auto gpu = gpus_.find(it->second);
  if (gpu == gpus_.end()) return std::nullopt;
  DeviceInfo d = gpu->second;
  d.id = cuda_id;
  return d;
}

}  // namespace cuprobe
