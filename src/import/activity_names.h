// The names importers give copies and memsets, which carry no name of their
// own in run files and Nsight Systems exports: "Memcpy HtoD" (a MemcpyKind
// name from model/kinds.h), "Memset". One spelling, so that a diff of a run
// file against an nsys export lines the same activities up.
#pragma once

#include <string>
#include <string_view>

#include "model/kinds.h"

namespace cuprobe {

inline constexpr std::string_view kMemsetName = "Memset";

inline std::string memcpy_name(std::string_view kind) { return "Memcpy " + std::string(kind); }
inline std::string memcpy_name(MemcpyKind kind) { return memcpy_name(name_of(kind)); }

}  // namespace cuprobe
