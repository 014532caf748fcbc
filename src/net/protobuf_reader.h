// A minimal reader of the protobuf wire format: one field at a time, varints and
// length-delimited values for the caller, every other wire type (fixed64,
// fixed32, groups) skipped. Strict on structure: a field that runs past the end,
// a varint over 10 bytes or a field number 0 is an Error naming the byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe {

class ProtobufReader {
 public:
  enum WireType { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

  explicit ProtobufReader(std::string_view message) : data_(message) {}
  explicit ProtobufReader(std::string&&) = delete;  // it views its message: never a temporary

  // Reads the next field (its value too); false at the end of the message.
  bool next();
  std::uint32_t field() const { return field_; }
  WireType wire_type() const { return type_; }
  // The value of the current field when it is a varint (else 0) or length-delimited (else "").
  std::uint64_t varint() const { return varint_; }
  std::string_view bytes() const { return bytes_; }

 private:
  std::uint64_t read_varint();
  std::string_view read_bytes(std::uint64_t length);
  void skip_value(WireType type, std::uint32_t field, int depth);
  [[noreturn]] void fail(const char* what) const;

  std::string_view data_;
  std::size_t pos_ = 0;
  std::uint32_t field_ = 0;
  WireType type_ = kVarint;
  std::uint64_t varint_ = 0;
  std::string_view bytes_;
};

}  // namespace cuprobe
