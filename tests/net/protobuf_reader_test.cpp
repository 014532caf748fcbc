// The protobuf wire reader: every wire type, unknown fields skipped, and
// truncated or hostile input refused with the byte it stopped at.
#include "net/protobuf_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"

namespace cuprobe {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s += static_cast<char>(c);
  return s;
}

TEST(ProtobufReader, ReadsVarintsAndBytesAndSkipsTheRest) {
  // 1: varint 300; 9: fixed64; 10: fixed32; 11: group holding 1: varint 1; 2: "hi"
  std::string m = bytes(
      {0x08, 0xac, 0x02, 0x49, 1, 2, 3, 4, 5, 6, 7, 8, 0x55, 1, 2, 3, 4, 0x5b, 0x08, 0x01, 0x5c, 0x12, 0x02, 'h', 'i'});
  ProtobufReader r(m);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 1u);
  EXPECT_EQ(r.varint(), 300u);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 9u);
  EXPECT_EQ(r.wire_type(), ProtobufReader::kFixed64);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.wire_type(), ProtobufReader::kFixed32);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.wire_type(), ProtobufReader::kStartGroup);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 2u);
  EXPECT_EQ(r.bytes(), "hi");
  EXPECT_FALSE(r.next());
}

TEST(ProtobufReader, TenByteVarintIsTheLimit) {
  // The reader views its message: each message outlives its reader.
  const std::string ten = bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
  ProtobufReader ok(ten);
  ASSERT_TRUE(ok.next());
  EXPECT_EQ(ok.varint(), ~0ull);
  const std::string eleven = bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
  ProtobufReader too_long(eleven);
  EXPECT_THROW(too_long.next(), Error);
}

void expect_refused(const std::string& m, const std::string& why) {
  ProtobufReader r(m);
  try {
    while (r.next()) {
    }
    ADD_FAILURE() << "accepted: " << why;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("protobuf: byte "), std::string::npos) << e.what();
  }
}

TEST(ProtobufReader, RefusesTruncatedAndHostileInput) {
  expect_refused(bytes({0x08}), "varint value missing");
  expect_refused(bytes({0x08, 0x80}), "varint cut");
  expect_refused(bytes({0x12, 0x05, 'a'}), "length past the end");
  expect_refused(bytes({0x12, 0xff, 0xff, 0xff, 0xff, 0x0f}), "4 GiB length");
  expect_refused(bytes({0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), "2^64-1 length");
  expect_refused(bytes({0x09, 1, 2, 3}), "fixed64 cut");
  expect_refused(bytes({0x0d, 1, 2}), "fixed32 cut");
  expect_refused(bytes({0x0b, 0x08, 0x01}), "group never ended");
  expect_refused(bytes({0x0b, 0x14}), "group ended by another field");
  expect_refused(bytes({0x0c}), "end of a group never started");
  expect_refused(bytes({0x0e}), "wire type 6");
  expect_refused(bytes({0x00, 0x01}), "field number 0");
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += static_cast<char>(0x0b);
  expect_refused(deep, "groups nested 100 deep");
}

}  // namespace
}  // namespace cuprobe
