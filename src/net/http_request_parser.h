// The head of an HTTP/1.1 request as a small server reads it: bytes arrive in
// pieces, split anywhere, and the head must end ("\r\n\r\n") within a bounded
// number of bytes. Enough for GET and HEAD (the method, the path without its
// query string, the Accept header); a body is not read. Hostile input ends in
// kFailed with the status to answer, never in an exception or a crash, and the
// parser never holds more than its limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cuprobe {

struct HttpRequest {
  std::string method, path;  // path without the query string
  std::string accept;        // the Accept header, "" when absent
};

class HttpRequestParser {
 public:
  enum class State { kHead, kDone, kFailed };
  static constexpr std::size_t kDefaultMaxHead = 16 << 10;

  explicit HttpRequestParser(std::size_t max_head_bytes = kDefaultMaxHead) : max_head_(max_head_bytes) {}

  // Takes the next bytes; bytes after the head are ignored. Returns the state.
  State feed(std::string_view data);

  State state() const { return state_; }
  const HttpRequest& request() const { return request_; }  // when kDone
  // When kFailed: 400 (not an HTTP request line) or 431 (no end of head within the limit).
  int error_status() const { return error_status_; }

 private:
  std::size_t max_head_;
  std::string head_;
  State state_ = State::kHead;
  HttpRequest request_;
  int error_status_ = 0;
};

// Parses a complete head (request line and headers, CRLF-separated); false when the
// request line is not "METHOD TARGET HTTP/..." or holds a control character, or a
// CR or LF stands outside a CRLF pair.
bool parse_http_request_head(std::string_view head, HttpRequest& request);

}  // namespace cuprobe
