#include "wire/record_stream_parser.h"

namespace cuprobe {

void RecordStreamParser::feed(const char* data, std::size_t n) {
  if (failed()) return;
  if (pos_ > 0 && pos_ >= buffer_.size() / 2) {
    offset_ += pos_;
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  buffer_.append(data, n);
}

RecordStreamParser::Status RecordStreamParser::fail(std::string reason) {
  error_ = "byte " + std::to_string(offset_ + pos_) + ": " + std::move(reason);
  return Status::kError;
}

RecordStreamParser::Status RecordStreamParser::next(WireFrame& frame) {
  while (true) {
    if (failed()) return Status::kError;
    if (buffer_.size() - pos_ < sizeof(wire::FrameHeader)) return Status::kNeedMore;
    auto header = wire::read_fixed<wire::FrameHeader>(buffer_.data() + pos_);
    if (header.length > wire::kMaxPayload) {
      return fail("frame of " + std::to_string(header.length) + " bytes is larger than the limit");
    }
    auto type = static_cast<wire::Type>(header.type);
    std::uint32_t fixed = wire::fixed_size(type);
    if (!saw_hello_ && type != wire::Type::kHello) return fail("stream does not start with a hello frame");
    if (fixed != 0) {
      if (header.length < fixed) return fail("frame type " + std::to_string(header.type) + " too short");
      if (!wire::has_tail(type) && header.length != fixed) {
        return fail("frame type " + std::to_string(header.type) + " has the wrong size");
      }
    }
    if (buffer_.size() - pos_ - sizeof header < header.length) return Status::kNeedMore;
    const char* payload = buffer_.data() + pos_ + sizeof header;
    if (type == wire::Type::kHello) {
      if (saw_hello_) return fail("second hello frame");
      auto hello = wire::read_fixed<wire::Hello>(payload);
      if (hello.magic != wire::kMagic) return fail("bad magic (not a cuprobe record stream)");
      if (hello.version != wire::kVersion) {
        return fail("wire version " + std::to_string(hello.version) + ", expected " + std::to_string(wire::kVersion));
      }
      saw_hello_ = true;
    }
    pos_ += sizeof header + header.length;
    if (fixed == 0) {  // a type from a newer library: skip it, counted
      ++skipped_unknown_;
      continue;
    }
    ++frames_;
    frame.type = type;
    frame.payload = std::string_view(payload, header.length);
    return Status::kFrame;
  }
}

}  // namespace cuprobe
