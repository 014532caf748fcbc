// Incremental HTTP/1.1 response parser: status line, headers (capped), and a body
// delimited by chunked transfer-encoding, Content-Length, or the connection
// closing. Bytes may arrive split anywhere; body bytes are handed to a sink as
// they are decoded. Hostile input (bad status line, huge headers, broken chunk
// sizes) ends in failed() with a reason, never in an exception or a crash.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe {

class HttpBodySink {
 public:
  virtual ~HttpBodySink() = default;
  virtual void on_body(std::string_view data) = 0;
};

class HttpResponseParser {
 public:
  struct Limits {
    std::size_t max_header_bytes = 64 * 1024;  // status line + all headers
    std::size_t max_chunk_line = 1024;         // "1a3f;ext=..." line of a chunked body
  };
  HttpResponseParser() = default;
  explicit HttpResponseParser(Limits limits) : limits_(limits) {}

  // Returns false once the response is malformed (see error()); bytes after the
  // end of the response are ignored.
  bool feed(std::string_view data, HttpBodySink& sink);
  // The peer closed the connection: ends a body delimited by the close.
  // Returns false (and fails) when the response was cut short.
  bool finish_on_eof();

  bool headers_done() const { return state_ > State::kHeaders; }
  bool done() const { return state_ == State::kDone; }
  bool failed() const { return state_ == State::kError; }
  // Short reason key ("malformed_http", "header_too_large", "bad_chunk", "server_closed")
  // and a human detail.
  const std::string& error() const { return error_; }
  const std::string& error_detail() const { return error_detail_; }

  int status() const { return status_; }
  const std::string& content_type() const { return content_type_; }  // lower-cased
  bool chunked() const { return chunked_; }
  const std::string& location() const { return location_; }  // the Location header (redirects), "" when none
  // The connection may carry another request after this response: HTTP/1.1,
  // no "Connection: close", and a body that does not end with the connection.
  // Meaningful once done().
  bool keep_alive() const { return http11_ && !close_ && (chunked_ || has_length_ || no_body_); }

 private:
  enum class State { kStatusLine, kHeaders, kBody, kChunkSize, kChunkData, kChunkDataEnd, kTrailers, kDone, kError };
  bool fail(const char* reason, std::string detail);
  bool take_line(std::string_view& data, std::string_view& line, std::size_t cap, bool& complete);
  bool on_status_line(std::string_view line);
  bool on_header_line(std::string_view line);
  bool on_headers_end();
  bool on_chunk_size_line(std::string_view line);

  Limits limits_{};
  State state_ = State::kStatusLine;
  std::string line_;  // partial line carried between feeds
  std::size_t header_bytes_ = 0;
  int status_ = 0;
  std::string content_type_;
  std::string location_;
  bool chunked_ = false;
  bool has_length_ = false;
  bool http11_ = false;          // the status line said HTTP/1.1 (or a later 1.x)
  bool close_ = false;           // "Connection: close"
  bool no_body_ = false;         // 204/304
  std::uint64_t remaining_ = 0;  // Content-Length left, or bytes left in the current chunk
  std::string error_;
  std::string error_detail_;
};

}  // namespace cuprobe
