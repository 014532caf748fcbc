// GPU UUIDs in nvidia-smi's spelling ("GPU-8c6f0d1e-..."): how cuprobe tells one
// physical GPU from another across processes that number devices differently
// (each process's CUDA_VISIBLE_DEVICES decides its ordinals).
#pragma once

#include <cstdint>
#include <string>

namespace cuprobe {

// `bytes` are the 16 bytes of a CUuuid; all zero gives "" (unknown).
std::string format_gpu_uuid(const std::uint8_t* bytes);

}  // namespace cuprobe
