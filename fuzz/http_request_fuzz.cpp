// The exporter's request parser (net/http_request_parser.h), fed the bytes a
// client sends whole, one byte at a time and in pieces (byte 1 picks the size):
// all three must agree on the outcome, the status of a refusal and the request
// read. Byte 0 picks the head-size cap (tight or the server's default). What a
// request carries must hold no line break (the path and Accept header are
// echoed nowhere raw, but a parser that let CR/LF through would be wrong).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "net/http_request_parser.h"
#include "support/split_feed.h"

namespace {

using namespace cuprobe;
using namespace cuprobe::fuzz;

struct Outcome {
  HttpRequestParser::State state = HttpRequestParser::State::kHead;
  int error_status = 0;
  HttpRequest request;
};

Outcome parse(std::string_view bytes, std::size_t piece, std::size_t max_head) {
  HttpRequestParser parser(max_head);
  feed_in_pieces(bytes, piece, [&](std::string_view p) { return parser.feed(p) == HttpRequestParser::State::kHead; });
  return {parser.state(), parser.error_status(), parser.request()};
}

void compare(const Outcome& a, const Outcome& b) {
  if (a.state != b.state) split_mismatch("state()");
  if (a.error_status != b.error_status) split_mismatch("error_status()");
  if (a.request.method != b.request.method) split_mismatch("request().method");
  if (a.request.path != b.request.path) split_mismatch("request().path");
  if (a.request.accept != b.request.accept) split_mismatch("request().accept");
}

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "==FUZZ== the request parser broke its promise: %s\n", what);
  std::abort();
}

void check_request(const Outcome& o, std::size_t size, std::size_t max_head) {
  if (o.state == HttpRequestParser::State::kFailed && o.error_status != 400 && o.error_status != 431) {
    broken("a refusal other than 400 or 431");
  }
  if (o.state == HttpRequestParser::State::kHead && size >= max_head) broken("more than the cap, still kHead");
  for (std::string_view field : {std::string_view(o.request.method), std::string_view(o.request.path)}) {
    if (field.find_first_of("\r\n ") != std::string_view::npos) broken("a space or line break in a field");
  }
  if (o.request.accept.find_first_of("\r\n") != std::string::npos) broken("a line break in Accept");
  if (o.request.path.find('?') != std::string::npos) broken("a query string in the path");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  std::size_t max_head = (data[0] & 1) ? 16 + (data[0] >> 1) : HttpRequestParser::kDefaultMaxHead;
  std::size_t piece = data[1] % 64 + 2;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 2, size - 2);

  Outcome whole = parse(bytes, 0, max_head);
  check_request(whole, bytes.size(), max_head);
  compare(whole, parse(bytes, 1, max_head));
  compare(whole, parse(bytes, piece, max_head));
  return 0;
}
