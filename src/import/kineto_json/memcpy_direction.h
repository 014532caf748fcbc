// Which way a copy went, from the names tracers give copies: Kineto's CUDA
// activities ("Memcpy HtoD (Pageable -> Device)"), the ROCm tracer's
// ("Memcpy DtoH", "CopyDeviceToHost"), and the runtime calls that start them
// (cudaMemcpyPeerAsync, hipMemcpyHtoDAsync, cuMemcpyDtoH_v2).
#pragma once

#include <string_view>

#include "model/profile.h"

namespace cuprobe {

MemcpyKind memcpy_kind_from_name(std::string_view name);

// Copies whose own name says no direction take it from the name of the runtime call that
// started them (same correlation id), when that name says one.
void memcpy_kinds_from_launches(Profile& profile);

}  // namespace cuprobe
