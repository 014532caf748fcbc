// One HTTP/2 exchange without sockets: what cuprobe sends, the answers it owes
// (SETTINGS/PING acks, WINDOW_UPDATE), a response split anywhere, and each
// framing error a broken or hostile peer can make; gRPC's message framing.
#include "net/http2_client_stream.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "net/grpc_unary_call.h"
#include "net/hpack_encoder.h"
#include "net/http_url.h"

namespace cuprobe {
namespace {

using F = H2Type;
namespace fl = h2_flag;

std::string headers_block(const std::vector<HeaderField>& fields) { return hpack_encode(fields); }

std::string response_frames() {
  std::string padded_data = std::string(1, '\x03') + "hello" + std::string(3, '\0');
  std::string trailers = headers_block({{"grpc-status", "0"}});
  return h2_frame(F::kSettings, 0, 0, std::string("\x00\x03\x00\x00\x00\x64", 6)) +
         h2_frame(F::kPing, 0, 0, "12345678") +
         h2_frame(F::kHeaders, fl::kEndHeaders, 1, headers_block({{":status", "200"}})) +
         h2_frame(F::kData, fl::kPadded, 1, padded_data) +
         h2_frame(F::kWindowUpdate, 0, 0, std::string("\0\0\0\1", 4)) + h2_frame(F::kData, 0, 1, " world") +
         h2_frame(F::kHeaders, fl::kEndStream, 1, trailers.substr(0, 3)) +
         h2_frame(F::kContinuation, fl::kEndHeaders, 1, trailers.substr(3));
}

TEST(Http2ClientStream, SendsPrefaceSettingsAndTheRequest) {
  H2ClientStream h2;
  std::string out = h2.start({{":method", "POST"}, {":path", "/x"}}, "body");
  ASSERT_EQ(out.substr(0, 24), kH2ClientPreface);
  H2FrameReader r;
  r.feed(out.substr(24));
  auto settings = r.next();
  ASSERT_TRUE(settings);
  EXPECT_TRUE(settings->is(F::kSettings));
  EXPECT_EQ(settings->payload.size() % 6, 0u);
  auto headers = r.next();
  ASSERT_TRUE(headers);
  EXPECT_TRUE(headers->is(F::kHeaders));
  EXPECT_EQ(headers->stream, 1u);
  EXPECT_TRUE(headers->has(fl::kEndHeaders));
  EXPECT_FALSE(headers->has(fl::kEndStream));
  EXPECT_EQ(HpackDecoder().decode(headers->payload), (std::vector<HeaderField>{{":method", "POST"}, {":path", "/x"}}));
  auto data = r.next();
  ASSERT_TRUE(data);
  EXPECT_TRUE(data->is(F::kData) && data->has(fl::kEndStream));
  EXPECT_EQ(data->payload, "body");
  EXPECT_FALSE(r.next());
}

TEST(Http2ClientStream, ReadsAResponseSplitAnywhereAndAnswersWhatItOwes) {
  std::string frames = response_frames();
  H2ClientStream h2;
  h2.start({}, "");
  std::string replies;
  for (char c : frames) replies += h2.receive(std::string(1, c));  // one byte at a time
  ASSERT_TRUE(h2.done());
  EXPECT_EQ(*h2_header(h2.headers(), ":status"), "200");
  EXPECT_EQ(*h2_header(h2.trailers(), "grpc-status"), "0");
  EXPECT_EQ(h2.body(), "hello world");
  H2FrameReader r;
  r.feed(replies);
  auto ack = r.next();
  ASSERT_TRUE(ack);
  EXPECT_TRUE(ack->is(F::kSettings) && ack->has(fl::kAck) && ack->payload.empty());
  auto pong = r.next();
  ASSERT_TRUE(pong);
  EXPECT_TRUE(pong->is(F::kPing) && pong->has(fl::kAck));
  EXPECT_EQ(pong->payload, "12345678");
  auto window = r.next();
  ASSERT_TRUE(window);
  EXPECT_TRUE(window->is(F::kWindowUpdate));
  EXPECT_EQ(h2_read_u32(window->payload), 9u);  // the padded frame's whole payload
}

TEST(Http2ClientStream, TrailersOnlyResponse) {
  H2ClientStream h2;
  h2.start({}, "");
  h2.receive(h2_frame(F::kHeaders, fl::kEndHeaders | fl::kEndStream, 1,
                      headers_block({{":status", "200"}, {"grpc-status", "12"}})));
  ASSERT_TRUE(h2.done());
  EXPECT_EQ(*h2_header(h2.trailers(), "grpc-status"), "12");
}

void expect_error(const std::string& frames, const std::string& part, H2Limits limits = {}) {
  H2ClientStream h2(limits);
  h2.start({}, "");
  try {
    h2.receive(frames);
    ADD_FAILURE() << "accepted; expected: " << part;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Http2ClientStream, RefusesFramingErrors) {
  std::string ok_headers = h2_frame(F::kHeaders, fl::kEndHeaders, 1, headers_block({{":status", "200"}}));
  expect_error(h2_frame(F::kData, 0, 1, std::string(16385, 'x')), "above the maximum 16384");
  expect_error(h2_frame(F::kContinuation, fl::kEndHeaders, 1, ""), "CONTINUATION without a HEADERS");
  expect_error(h2_frame(F::kHeaders, 0, 1, "") + h2_frame(F::kData, 0, 1, "x"), "interrupted before its END_HEADERS");
  expect_error(h2_frame(F::kRstStream, 0, 1, std::string("\0\0\0\x08", 4)), "reset the stream (error code 8)");
  expect_error(h2_frame(F::kGoaway, 0, 0, std::string("\0\0\0\0\0\0\0\x0b", 8) + "calm down"),
               "GOAWAY, error code 11: calm down");
  expect_error(h2_frame(F::kData, 0, 3, "x"), "stream 3, never opened");
  expect_error(h2_frame(F::kData, 0, 0, "x"), "on stream 0");
  expect_error(ok_headers + h2_frame(F::kData, fl::kPadded, 1, std::string("\x09xx", 3)), "padding longer");
  expect_error(h2_frame(F::kData, 0, 1, "x"), "DATA outside the response body");
  expect_error(h2_frame(F::kPushPromise, fl::kEndHeaders, 1, std::string(4, '\0')), "PUSH_PROMISE");
  expect_error(h2_frame(F::kSettings, 0, 0, "12345"), "SETTINGS of the wrong size");
  expect_error(h2_frame(F::kPing, 0, 0, "1234"), "PING of the wrong size");
  expect_error(h2_frame(F::kHeaders, fl::kEndHeaders, 1, "\x80"), "HPACK: index 0");
  H2Limits small;
  small.max_body = 4;
  expect_error(ok_headers + h2_frame(F::kData, 0, 1, "12345"), "larger than 4 bytes", small);
  small.max_header_list = 8;
  expect_error(h2_frame(F::kHeaders, 0, 1, "") + h2_frame(F::kContinuation, 0, 1, std::string(9, '\x82')),
               "header block too large", small);
}

TEST(Http2ClientStream, GoawayThatLetsTheStreamFinishIsFine) {
  H2ClientStream h2;
  h2.start({}, "");
  h2.receive(h2_frame(F::kGoaway, 0, 0, std::string("\0\0\0\1\0\0\0\0", 8)) +
             h2_frame(F::kHeaders, fl::kEndHeaders | fl::kEndStream, 1, headers_block({{":status", "200"}})));
  EXPECT_TRUE(h2.done());
}

TEST(GrpcFraming, OneMessageAndItsLimits) {
  EXPECT_EQ(grpc_unframe(grpc_frame("abc"), 100), "abc");
  EXPECT_EQ(grpc_unframe(grpc_frame(""), 100), "");
  EXPECT_THROW(grpc_unframe("", 100), Error);
  EXPECT_THROW(grpc_unframe(std::string("\0\0\0", 3), 100), Error);
  EXPECT_THROW(grpc_unframe(std::string("\1\0\0\0\0", 5), 100), Error);  // compressed
  EXPECT_THROW(grpc_unframe(grpc_frame("abc").substr(0, 7), 100), Error);
  EXPECT_THROW(grpc_unframe(grpc_frame("abc") + grpc_frame("d"), 100), Error);
  EXPECT_THROW(grpc_unframe(std::string("\0\x7f\xff\xff\xff", 5), 100), Error);  // 2 GiB declared
  EXPECT_EQ(percent_decode("no%20access%3A%zz"), "no access:%zz");
  EXPECT_EQ(grpc_status_name(14), "UNAVAILABLE");
}

}  // namespace
}  // namespace cuprobe
