// Kernel names as people read them, whatever the input: a trace can carry
// Itanium-mangled names (ROCm's `_ZN5aiter...` in Kineto and rocprofv3 output, a
// CUPTI name no tool demangled). Every imported profile passes here once
// (import/load_profiles), so that every verb and view shows the same name.
#pragma once

#include "model/profile.h"

namespace cuprobe {

// Replaces each GPU activity's mangled name ("_Z...") by its demangled form (common/demangle); names that do not
// demangle stay as they are. Returns how many distinct names were demangled.
std::size_t demangle_kernel_names(Profile& profile);

}  // namespace cuprobe
