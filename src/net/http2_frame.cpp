#include "net/http2_frame.h"

#include "common/error.h"

namespace cuprobe {

std::uint32_t h2_read_u32(std::string_view p) {
  auto b = [&](int i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(p[i])); };
  return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
}

void h2_put_u32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xff);
}

std::string h2_frame(H2Type type, std::uint8_t flags, std::uint32_t stream, std::string_view payload) {
  std::string out;
  out.reserve(9 + payload.size());
  auto length = static_cast<std::uint32_t>(payload.size());
  out += static_cast<char>((length >> 16) & 0xff);
  out += static_cast<char>((length >> 8) & 0xff);
  out += static_cast<char>(length & 0xff);
  out += static_cast<char>(type);
  out += static_cast<char>(flags);
  h2_put_u32(out, stream & 0x7fffffffu);
  out.append(payload);
  return out;
}

std::optional<H2Frame> H2FrameReader::next() {
  std::string_view rest = std::string_view(buffer_).substr(pos_);
  if (rest.size() < 9) return std::nullopt;
  std::uint32_t length = h2_read_u32(rest.substr(0, 4)) >> 8;
  if (length > max_) {
    throw Error("HTTP/2: frame of " + std::to_string(length) + " bytes, above the maximum " + std::to_string(max_));
  }
  if (rest.size() < 9 + length) return std::nullopt;
  H2Frame f;
  f.type = static_cast<std::uint8_t>(rest[3]);
  f.flags = static_cast<std::uint8_t>(rest[4]);
  f.stream = h2_read_u32(rest.substr(5, 4)) & 0x7fffffffu;
  f.payload.assign(rest.substr(9, length));
  pos_ += 9 + length;
  if (pos_ == buffer_.size() || pos_ > 64 * 1024) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  return f;
}

}  // namespace cuprobe
