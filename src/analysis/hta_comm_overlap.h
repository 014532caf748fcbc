// Communication beside computation as Holistic Trace Analysis counts it
// (get_comm_comp_overlap, get_gpu_kernel_breakdown's kernel types;
// docs/analyze-tables.md "Communication overlap").
#pragma once

#include <cstdint>
#include <string_view>

#include "analysis/trace_tables.h"
#include "model/profile.h"

namespace cuprobe {

enum class HtaKernelType : std::uint8_t { kCommunication, kMemory, kComputation, kOther };

// hta/utils/utils.py get_kernel_type of one activity: copies and memsets are memory whatever their name.
HtaKernelType hta_kernel_type(const GpuActivity& activity, std::string_view name);

// Over every activity of `profile` (cut to HTA's window by the caller), the GPUs of the rank together.
HtaCommOverlap hta_comm_overlap(const Profile& profile);

}  // namespace cuprobe
