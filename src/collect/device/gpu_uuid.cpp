#include "collect/device/gpu_uuid.h"

#include <algorithm>

namespace cuprobe {

std::string format_gpu_uuid(const std::uint8_t* bytes) {
  if (std::all_of(bytes, bytes + 16, [](std::uint8_t b) { return b == 0; })) return "";
  static const char* kHex = "0123456789abcdef";
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out;
}

}  // namespace cuprobe
