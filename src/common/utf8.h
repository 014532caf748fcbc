// UTF-8 validation and repair for names taken from input files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe {

bool is_valid_utf8(std::string_view s);
// Replaces each invalid sequence with U+FFFD.
std::string repair_utf8(std::string_view s);
// For messages and examples: valid UTF-8 on one line, control bytes written
// as \xNN, cut (with "...") after about max_bytes.
std::string printable_one_line(std::string_view s, std::size_t max_bytes = SIZE_MAX);
// For a peer's protocol line in a message: its first max_bytes, every byte outside printable ASCII as '?'.
std::string printable_ascii(std::string_view s, std::size_t max_bytes = 80);

}  // namespace cuprobe
