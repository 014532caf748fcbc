#include "net/hpack_huffman.h"

#include <array>
#include <cstdint>

#include "common/error.h"

namespace cuprobe {
namespace {

// Code length in bits of each symbol (0-255, then EOS). The code is canonical: shorter codes
// first, and within one length in symbol order, so the lengths define every code.
constexpr std::array<std::uint8_t, 257> kLengths = {
    13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28,
    28, 28, 28, 6,  10, 10, 12, 13, 6,  8,  11, 10, 10, 8,  11, 8,  6,  6,  6,  5,  5,  5,  6,  6,  6,  6,  6,  6,  6,
    7,  8,  15, 6,  12, 10, 13, 6,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,
    7,  8,  7,  8,  13, 19, 13, 14, 6,  15, 5,  6,  5,  6,  5,  6,  6,  6,  5,  7,  7,  6,  6,  6,  5,  6,  7,  6,  5,
    5,  6,  7,  7,  7,  7,  7,  15, 11, 14, 13, 28, 20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, 24,
    24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, 22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22,
    23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26,
    27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, 20, 24, 20, 21, 22, 21, 21, 23,
    22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, 30};

constexpr int kMaxLength = 30;
constexpr int kEos = 256;

// The canonical decoding tables: for each length, the first code, how many codes, and where
// its symbols start in `symbols` (sorted by length, then symbol).
struct Canonical {
  std::array<std::uint32_t, kMaxLength + 1> first{}, count{}, offset{};
  std::array<std::uint16_t, 257> symbols{};
};

Canonical build() {
  Canonical c;
  for (auto len : kLengths) ++c.count[len];
  std::uint32_t code = 0, at = 0;
  for (int len = 1; len <= kMaxLength; ++len) {
    code <<= 1;
    c.first[len] = code;
    c.offset[len] = at;
    code += c.count[len];
    at += c.count[len];
  }
  std::array<std::uint32_t, kMaxLength + 1> next{};
  for (int sym = 0; sym < 257; ++sym) {
    int len = kLengths[sym];
    c.symbols[c.offset[len] + next[len]++] = static_cast<std::uint16_t>(sym);
  }
  return c;
}

}  // namespace

std::string hpack_huffman_decode(std::string_view in) {
  static const Canonical table = build();
  std::string out;
  out.reserve(in.size() * 8 / 5);
  std::uint32_t code = 0;
  int len = 0;
  bool all_ones = true;  // the bits of the pending code so far
  for (unsigned char byte : in) {
    for (int bit = 7; bit >= 0; --bit) {
      unsigned b = (byte >> bit) & 1u;
      code = (code << 1) | b;
      all_ones = all_ones && b == 1;
      ++len;
      if (code - table.first[len] < table.count[len]) {
        int sym = table.symbols[table.offset[len] + (code - table.first[len])];
        if (sym == kEos) throw Error("HPACK: Huffman string holds EOS");
        out += static_cast<char>(sym);
        code = 0;
        len = 0;
        all_ones = true;
      } else if (len >= kMaxLength) {
        throw Error("HPACK: invalid Huffman code");
      }
    }
  }
  if (len > 7 || !all_ones) throw Error("HPACK: Huffman string ends in invalid padding");
  return out;
}

}  // namespace cuprobe
