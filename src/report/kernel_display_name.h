// A short, readable form of a long templated kernel name for text reports:
// "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(...)::{lambda...}, ...>(...)"
// becomes "unrolled_elementwise_kernel<direct_copy_kernel_cuda>". JSON keeps full names.
// A name that is no signature (a space before its '(': "CUDA graph 3 (whole launch)",
// "Memcpy DtoH (Device -> Pinned)") stays whole.
#pragma once

#include <string>
#include <string_view>

namespace cuprobe {

std::string kernel_display_name(std::string_view full_name, std::size_t max_length = 72);

}  // namespace cuprobe
