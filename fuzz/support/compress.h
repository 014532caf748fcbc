// In-memory gzip and xz, to hand the readers compressed inputs made from the
// fuzzer's plain text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe::fuzz {

enum class Wrapping { kPlain, kGzip, kXz };

std::string gzip(std::string_view data);
std::string xz(std::string_view data);
std::string wrap(Wrapping w, std::string_view data);

// How a target reads its first input byte: bits 0-1 pick the wrapping (0, 1
// plain; 2 gzip; 3 xz); with bit 7 set, the file loses its last
// ((selector >> 2) & 31) + 1 bytes (a truncated download).
struct WrapChoice {
  Wrapping wrapping = Wrapping::kPlain;
  std::size_t cut = 0;
};
WrapChoice wrap_choice(std::uint8_t selector);
// Wraps and applies the cut.
std::string wrap(const WrapChoice& choice, std::string_view data);

}  // namespace cuprobe::fuzz
