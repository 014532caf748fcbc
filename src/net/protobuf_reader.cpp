#include "net/protobuf_reader.h"

#include <string>

#include "common/error.h"

namespace cuprobe {
namespace {
constexpr int kMaxGroupDepth = 32;
}

void ProtobufReader::fail(const char* what) const {
  throw Error("protobuf: byte " + std::to_string(pos_) + ": " + what);
}

std::uint64_t ProtobufReader::read_varint() {
  std::uint64_t value = 0;
  for (int i = 0; i < 10; ++i) {
    if (pos_ >= data_.size()) fail("message ends inside a varint");
    auto byte = static_cast<unsigned char>(data_[pos_++]);
    value |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) return value;
  }
  fail("varint longer than 10 bytes");
}

std::string_view ProtobufReader::read_bytes(std::uint64_t length) {
  if (length > data_.size() - pos_) fail("length-delimited field runs past the end of the message");
  std::string_view v = data_.substr(pos_, length);
  pos_ += length;
  return v;
}

// Skips the value of a field the caller does not read; a group up to its matching end.
void ProtobufReader::skip_value(WireType type, std::uint32_t field, int depth) {
  switch (type) {
    case kVarint:
      read_varint();
      return;
    case kFixed64:
      read_bytes(8);
      return;
    case kFixed32:
      read_bytes(4);
      return;
    case kLengthDelimited:
      read_bytes(read_varint());
      return;
    case kStartGroup:
      if (depth >= kMaxGroupDepth) fail("groups nested too deep");
      for (;;) {
        if (pos_ >= data_.size()) fail("message ends inside a group");
        std::uint64_t tag = read_varint();
        auto inner = static_cast<WireType>(tag & 7);
        if (inner == kEndGroup) {
          if ((tag >> 3) != field) fail("group ends with another field's number");
          return;
        }
        if ((tag >> 3) == 0 || (tag >> 3) > 0x1fffffff || (tag & 7) > 5) fail("invalid tag");
        skip_value(inner, static_cast<std::uint32_t>(tag >> 3), depth + 1);
      }
    case kEndGroup:
      fail("end of a group that was not started");
  }
  fail("invalid wire type");
}

bool ProtobufReader::next() {
  varint_ = 0;
  bytes_ = {};
  if (pos_ >= data_.size()) return false;
  std::uint64_t tag = read_varint();
  if ((tag >> 3) == 0 || (tag >> 3) > 0x1fffffff) fail("invalid field number");
  if ((tag & 7) > 5) fail("invalid wire type");
  field_ = static_cast<std::uint32_t>(tag >> 3);
  type_ = static_cast<WireType>(tag & 7);
  if (type_ == kVarint) {
    varint_ = read_varint();
  } else if (type_ == kLengthDelimited) {
    bytes_ = read_bytes(read_varint());
  } else {
    skip_value(type_, field_, 0);
  }
  return true;
}

}  // namespace cuprobe
