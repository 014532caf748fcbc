// HPACK: RFC 7541 Appendix C (C.2 literals, C.3/C.4 requests without and with
// Huffman, C.5/C.6 responses with eviction from a 256-byte table), size
// updates, and what a hostile peer may send.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "net/hpack_decoder.h"
#include "net/hpack_encoder.h"
#include "net/hpack_huffman.h"
#include "net/hpack_integer.h"

namespace cuprobe {
namespace {

std::string hex(const std::string& text) {
  std::string out, digits;
  for (char c : text) {
    if (c != ' ') digits += c;
  }
  for (std::size_t i = 0; i + 1 < digits.size(); i += 2) {
    out += static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16));
  }
  return out;
}

using Fields = std::vector<HeaderField>;

TEST(Hpack, IntegersOfRfcC1) {
  std::string out;
  hpack_put_integer(out, 10, 5, 0);
  hpack_put_integer(out, 1337, 5, 0);
  hpack_put_integer(out, 42, 8, 0);
  EXPECT_EQ(out, hex("0a 1f9a0a 2a"));
  std::size_t pos = 0;
  EXPECT_EQ(hpack_get_integer(out, &pos, 5), 10u);
  EXPECT_EQ(hpack_get_integer(out, &pos, 5), 1337u);
  EXPECT_EQ(hpack_get_integer(out, &pos, 8), 42u);
  EXPECT_EQ(pos, out.size());
  pos = 0;
  EXPECT_THROW(hpack_get_integer(hex("1f9a"), &pos, 5), Error);  // ends inside
  pos = 0;
  EXPECT_THROW(hpack_get_integer(hex("1fffffffffff7f"), &pos, 5), Error);  // above 2^32
}

TEST(Hpack, LiteralsOfRfcC2) {
  HpackDecoder d;
  EXPECT_EQ(d.decode(hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572")),
            (Fields{{"custom-key", "custom-header"}}));
  EXPECT_EQ(d.table_size(), 55u);
  HpackDecoder d2;
  EXPECT_EQ(d2.decode(hex("040c 2f73 616d 706c 652f 7061 7468")), (Fields{{":path", "/sample/path"}}));
  EXPECT_EQ(d2.decode(hex("1008 7061 7373 776f 7264 0673 6563 7265 74")), (Fields{{"password", "secret"}}));
  EXPECT_EQ(d2.decode(hex("82")), (Fields{{":method", "GET"}}));
  EXPECT_EQ(d2.table_size(), 0u);
}

const Fields kReq1 = {{":method", "GET"}, {":scheme", "http"}, {":path", "/"}, {":authority", "www.example.com"}};
const Fields kReq2 = {{":method", "GET"},
                      {":scheme", "http"},
                      {":path", "/"},
                      {":authority", "www.example.com"},
                      {"cache-control", "no-cache"}};
const Fields kReq3 = {{":method", "GET"},
                      {":scheme", "https"},
                      {":path", "/index.html"},
                      {":authority", "www.example.com"},
                      {"custom-key", "custom-value"}};

void expect_requests(const std::vector<std::string>& blocks) {
  HpackDecoder d;
  EXPECT_EQ(d.decode(hex(blocks[0])), kReq1);
  EXPECT_EQ(d.table_size(), 57u);
  EXPECT_EQ(d.decode(hex(blocks[1])), kReq2);
  EXPECT_EQ(d.table_size(), 110u);
  EXPECT_EQ(d.decode(hex(blocks[2])), kReq3);
  EXPECT_EQ(d.table_size(), 164u);
  EXPECT_EQ(d.table(),
            (std::deque<HeaderField>{
                {"custom-key", "custom-value"}, {"cache-control", "no-cache"}, {":authority", "www.example.com"}}));
}

TEST(Hpack, RequestsOfRfcC3) {
  expect_requests({"8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", "8286 84be 5808 6e6f 2d63 6163 6865",
                   "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65"});
}

TEST(Hpack, HuffmanRequestsOfRfcC4) {
  expect_requests({"8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", "8286 84be 5886 a8eb 1064 9cbf",
                   "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"});
}

const std::string kDate1 = "Mon, 21 Oct 2013 20:13:21 GMT", kDate2 = "Mon, 21 Oct 2013 20:13:22 GMT";
const std::string kLocation = "https://www.example.com";
const std::string kCookie = "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

void expect_responses(const std::vector<std::string>& blocks) {
  HpackDecoder d(256);
  // The decoder's ceiling is 256 (as advertised); the table starts at it.
  EXPECT_EQ(d.decode(hex(blocks[0])),
            (Fields{{":status", "302"}, {"cache-control", "private"}, {"date", kDate1}, {"location", kLocation}}));
  EXPECT_EQ(d.table_size(), 222u);
  EXPECT_EQ(d.decode(hex(blocks[1])),
            (Fields{{":status", "307"}, {"cache-control", "private"}, {"date", kDate1}, {"location", kLocation}}));
  EXPECT_EQ(d.table_size(), 222u);
  EXPECT_EQ(d.table().front(), (HeaderField{":status", "307"}));
  EXPECT_EQ(d.decode(hex(blocks[2])), (Fields{{":status", "200"},
                                              {"cache-control", "private"},
                                              {"date", kDate2},
                                              {"location", kLocation},
                                              {"content-encoding", "gzip"},
                                              {"set-cookie", kCookie}}));
  EXPECT_EQ(d.table_size(), 215u);
  EXPECT_EQ(d.table(),
            (std::deque<HeaderField>{{"set-cookie", kCookie}, {"content-encoding", "gzip"}, {"date", kDate2}}));
}

TEST(Hpack, ResponsesOfRfcC5) {
  expect_responses(
      {"4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 "
       "3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
       "4803 3330 37c1 c0bf",
       "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a "
       "6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d "
       "6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31"});
}

TEST(Hpack, HuffmanResponsesOfRfcC6) {
  expect_responses(
      {"4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d "
       "29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
       "4883 640e ffc1 c0bf",
       "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d "
       "d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 "
       "3d50 07"});
}

TEST(Hpack, TableSizeUpdates) {
  HpackDecoder d;
  d.decode(hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
  EXPECT_EQ(d.decode(hex("20 82")), (Fields{{":method", "GET"}}));  // to 0: emptied
  EXPECT_EQ(d.table_size(), 0u);
  d.decode(hex("3fe11f 400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));  // back to 4096
  EXPECT_EQ(d.table_size(), 55u);
  EXPECT_THROW(d.decode(hex("3fe21f")), Error);  // 4097: above what was advertised
  EXPECT_THROW(d.decode(hex("82 20")), Error);   // after a field
}

TEST(Hpack, RefusesWhatAHostilePeerSends) {
  HpackDecoder d(4096, 100);
  EXPECT_THROW(d.decode(hex("80")), Error);               // index 0
  EXPECT_THROW(d.decode(hex("be")), Error);               // index 62, table empty
  EXPECT_THROW(d.decode(hex("0408 2f73")), Error);        // string past the block
  EXPECT_THROW(d.decode(std::string(1, '\x7f')), Error);  // integer cut
  // A header list above the limit (100 bytes): 3 fields of 32 + 7.
  EXPECT_THROW(d.decode(hex("0003 616161 0003 626262 0003 636363")), Error);
  EXPECT_THROW(d.decode(hex("007f 7f")), Error);  // a 254-byte string length above the list limit
}

TEST(Hpack, HuffmanRefusesBadPaddingAndEos) {
  EXPECT_EQ(hpack_huffman_decode(hex("f1e3 c2e5 f23a 6ba0 ab90 f4ff")), "www.example.com");
  EXPECT_EQ(hpack_huffman_decode(""), "");
  EXPECT_THROW(hpack_huffman_decode(hex("ff")), Error);         // 8 bits of padding
  EXPECT_THROW(hpack_huffman_decode(hex("00")), Error);         // '0' (00000) then 000: padding not ones
  EXPECT_THROW(hpack_huffman_decode(hex("ffff ffff")), Error);  // EOS (30 ones)
}

TEST(Hpack, EncoderWritesLiteralsTheDecoderReads) {
  Fields fields = {{":method", "POST"}, {"grpc-timeout", "5000m"}, {"x", std::string(300, 'v')}};
  std::string block = hpack_encode(fields);
  EXPECT_EQ(block.substr(0, 2), hex("00 07"));  // literal without indexing, new name, 7 bytes
  HpackDecoder d;
  EXPECT_EQ(d.decode(block), fields);
  EXPECT_EQ(d.table_size(), 0u);
}

}  // namespace
}  // namespace cuprobe
