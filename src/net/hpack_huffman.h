// The Huffman code of HPACK (RFC 7541 Appendix B), for the header strings an
// HTTP/2 peer sends: decoding only (cuprobe sends its headers as plain literals).
#pragma once

#include <string>
#include <string_view>

namespace cuprobe {

// The decoded bytes of `in`; throws Error when the code holds EOS, or ends in padding that is
// longer than 7 bits or not the EOS prefix (all ones).
std::string hpack_huffman_decode(std::string_view in);

}  // namespace cuprobe
