// UTF-8 validation and repair for names taken from input files.
#pragma once

#include <string>
#include <string_view>

namespace cuprobe {

bool is_valid_utf8(std::string_view s);
// Replaces each invalid sequence with U+FFFD.
std::string repair_utf8(std::string_view s);

}  // namespace cuprobe
