// The GPUs an Nsight Systems export describes: TARGET_INFO_GPU (name, SMs,
// memory, compute capability) joined to the CUDA device ids the processes saw
// (TARGET_INFO_CUDA_DEVICE: gpuId -> cudaId, per process), because activities
// carry the CUDA device id.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "model/profile.h"
#include "store/sqlite_db.h"

namespace cuprobe {

class ExportGpus {
 public:
  ExportGpus(SqliteDb& db, Profile& p, const std::string& file);
  // The GPU a process saw as CUDA device `cuda_id` (DeviceInfo::id is cuda_id).
  std::optional<DeviceInfo> find(std::int64_t pid, std::int32_t cuda_id) const;

 private:
  std::map<std::int64_t, DeviceInfo> gpus_;                               // by TARGET_INFO_GPU.id
  std::map<std::pair<std::int64_t, std::int32_t>, std::int64_t> gpu_of_;  // (pid or -1, cudaId) -> gpu id
};

}  // namespace cuprobe
