// Parent side of the record wire format (wire/record_wire.h): splits the
// byte stream of one connection into frames and checks them. Garbage,
// truncated and oversized input end the stream with a reason; nothing here
// trusts the other end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "wire/record_wire.h"

namespace cuprobe {

struct WireFrame {
  wire::Type type{};
  std::string_view payload;  // valid until the next feed()
};

class RecordStreamParser {
 public:
  enum class Status { kFrame, kNeedMore, kError };

  void feed(const char* data, std::size_t n);
  // The next complete frame; kNeedMore when the buffer ends mid-frame;
  // kError (sticky) with error() set when the stream is not valid.
  Status next(WireFrame& frame);

  const std::string& error() const { return error_; }
  bool failed() const { return !error_.empty(); }
  bool saw_hello() const { return saw_hello_; }
  // Bytes received but not yet part of a complete frame: non-zero at EOF
  // means the stream was cut mid-frame.
  std::size_t pending_bytes() const { return buffer_.size() - pos_; }
  std::uint64_t frames() const { return frames_; }
  std::uint64_t skipped_unknown() const { return skipped_unknown_; }

 private:
  Status fail(std::string reason);

  std::string buffer_;
  std::size_t pos_ = 0;
  std::uint64_t offset_ = 0;  // stream offset of buffer_[0]
  std::uint64_t frames_ = 0;
  std::uint64_t skipped_unknown_ = 0;
  bool saw_hello_ = false;
  std::string error_;
};

}  // namespace cuprobe
