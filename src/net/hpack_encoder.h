// HPACK encoding for cuprobe's own requests: every field a literal without
// indexing (RFC 7541 §6.2.2), no Huffman: nothing for the peer's table to hold.
#pragma once

#include <string>
#include <vector>

#include "net/hpack_decoder.h"

namespace cuprobe {

// The header block of `fields`, in order.
std::string hpack_encode(const std::vector<HeaderField>& fields);

}  // namespace cuprobe
