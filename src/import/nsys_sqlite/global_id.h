// Nsight Systems' serialized process and thread ids (globalPid, globalTid):
// the process id is bits 24-47 and the thread id bits 0-23 (the export
// documentation's "Serialized process and thread identifiers").
#pragma once

#include <cstdint>

namespace cuprobe {

inline std::int64_t pid_of_global_id(std::int64_t global_id) { return (global_id >> 24) & 0xFFFFFF; }
inline std::int64_t tid_of_global_id(std::int64_t global_id) { return global_id & 0xFFFFFF; }

}  // namespace cuprobe
