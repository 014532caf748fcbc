// HPACK's prefix integers (RFC 7541 §5.1): N bits in the first byte, then 7 bits
// a byte; shared by the encoder and the decoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe {

// Appends `value` with an N-bit prefix (1 ≤ N ≤ 8); `flags` fills the first byte's high bits.
void hpack_put_integer(std::string& out, std::uint64_t value, int prefix_bits, std::uint8_t flags);

// Reads an integer with an N-bit prefix at in[*pos] and advances *pos; throws Error when the
// block ends inside it or it exceeds 2^32-1 (nothing HPACK carries is larger).
std::uint32_t hpack_get_integer(std::string_view in, std::size_t* pos, int prefix_bits);

}  // namespace cuprobe
