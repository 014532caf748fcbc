// HTTP/2 frames (RFC 9113 §4): the 9-byte header and its payload, written and
// read; the reader refuses a frame longer than the size cuprobe advertised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cuprobe {

enum class H2Type : std::uint8_t {
  kData = 0,
  kHeaders = 1,
  kPriority = 2,
  kRstStream = 3,
  kSettings = 4,
  kPushPromise = 5,
  kPing = 6,
  kGoaway = 7,
  kWindowUpdate = 8,
  kContinuation = 9,
};

namespace h2_flag {
constexpr std::uint8_t kEndStream = 0x1, kAck = 0x1, kEndHeaders = 0x4, kPadded = 0x8, kPriority = 0x20;
}

constexpr std::string_view kH2ClientPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
constexpr std::uint32_t kH2DefaultMaxFrameSize = 16384;

struct H2Frame {
  std::uint8_t type = 0;  // an H2Type, or another type (to be ignored)
  std::uint8_t flags = 0;
  std::uint32_t stream = 0;
  std::string payload;
  bool is(H2Type t) const { return type == static_cast<std::uint8_t>(t); }
  bool has(std::uint8_t flag) const { return (flags & flag) != 0; }
};

// The bytes of one frame.
std::string h2_frame(H2Type type, std::uint8_t flags, std::uint32_t stream, std::string_view payload);
// Big-endian 32-bit value at p (4 bytes).
std::uint32_t h2_read_u32(std::string_view p);
void h2_put_u32(std::string& out, std::uint32_t v);

// Cuts frames out of the bytes read from a connection.
class H2FrameReader {
 public:
  explicit H2FrameReader(std::uint32_t max_frame_size = kH2DefaultMaxFrameSize) : max_(max_frame_size) {}
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next whole frame, or nullopt until more bytes come; throws Error when a frame
  // declares a length above the maximum (FRAME_SIZE_ERROR).
  std::optional<H2Frame> next();

 private:
  std::uint32_t max_;
  std::string buffer_;
  std::size_t pos_ = 0;
};

}  // namespace cuprobe
