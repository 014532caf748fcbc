#include "net/hpack_integer.h"

#include "common/error.h"

namespace cuprobe {

void hpack_put_integer(std::string& out, std::uint64_t value, int prefix_bits, std::uint8_t flags) {
  const std::uint64_t max_prefix = (1u << prefix_bits) - 1;
  if (value < max_prefix) {
    out += static_cast<char>(flags | value);
    return;
  }
  out += static_cast<char>(flags | max_prefix);
  value -= max_prefix;
  while (value >= 128) {
    out += static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  out += static_cast<char>(value);
}

std::uint32_t hpack_get_integer(std::string_view in, std::size_t* pos, int prefix_bits) {
  if (*pos >= in.size()) throw Error("HPACK: header block ends inside an integer");
  const std::uint32_t max_prefix = (1u << prefix_bits) - 1;
  std::uint64_t value = static_cast<unsigned char>(in[(*pos)++]) & max_prefix;
  if (value < max_prefix) return static_cast<std::uint32_t>(value);
  for (int shift = 0;; shift += 7) {
    if (*pos >= in.size()) throw Error("HPACK: header block ends inside an integer");
    if (shift > 28) throw Error("HPACK: integer too large");
    auto byte = static_cast<unsigned char>(in[(*pos)++]);
    value += static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if (value > 0xffffffffu) throw Error("HPACK: integer too large");
    if ((byte & 0x80) == 0) return static_cast<std::uint32_t>(value);
  }
}

}  // namespace cuprobe
