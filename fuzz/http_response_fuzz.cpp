// The HTTP/1.1 response parser, fed the response whole, one byte at a time and
// in pieces (byte 1 picks the size), each ended by the connection closing: all
// three must agree on status, headers, outcome and body bytes. Byte 0 picks
// tight or default header and chunk-line caps. The body then goes through the
// SSE parser and the stream decoder, as in `cuprobe bench`.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "net/http_response_parser.h"
#include "support/split_feed.h"
#include "support/sse_events.h"

namespace {

using namespace cuprobe;
using namespace cuprobe::fuzz;

struct Body final : HttpBodySink {
  std::string bytes;
  void on_body(std::string_view data) override { bytes.append(data); }
};

struct Outcome {
  int status = 0;
  bool headers_done = false, done = false, failed = false, chunked = false;
  std::string error, content_type, body;
};

Outcome parse(std::string_view response, std::size_t piece, HttpResponseParser::Limits limits) {
  HttpResponseParser parser(limits);
  Body body;
  feed_in_pieces(response, piece, [&](std::string_view p) { return parser.feed(p, body); });
  if (!parser.failed()) parser.finish_on_eof();
  return {parser.status(),  parser.headers_done(), parser.done(),         parser.failed(),
          parser.chunked(), parser.error(),        parser.content_type(), std::move(body.bytes)};
}

void compare(const Outcome& a, const Outcome& b) {
  if (a.status != b.status) split_mismatch("status()");
  if (a.headers_done != b.headers_done) split_mismatch("headers_done()");
  if (a.done != b.done) split_mismatch("done()");
  if (a.failed != b.failed) split_mismatch("failed()");
  if (a.error != b.error) split_mismatch("error()");
  if (a.chunked != b.chunked) split_mismatch("chunked()");
  if (a.content_type != b.content_type) split_mismatch("content_type()");
  if (a.body != b.body) split_mismatch("the body bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  HttpResponseParser::Limits limits;
  if (data[0] & 1) limits.max_header_bytes = 64 + (data[0] >> 1);
  if (data[0] & 2) limits.max_chunk_line = 8 + (data[0] >> 2);
  std::size_t piece = data[1] % 64 + 2;
  std::string_view response(reinterpret_cast<const char*>(data) + 2, size - 2);

  Outcome whole = parse(response, 0, limits);
  compare(whole, parse(response, 1, limits));
  compare(whole, parse(response, piece, limits));
  decode_all(ApiKind::kChat, parse_sse(whole.body, 0).sink);
  return 0;
}
