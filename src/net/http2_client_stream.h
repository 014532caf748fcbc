// One HTTP/2 request and its response on a fresh cleartext connection (h2c with
// prior knowledge), as a state machine without I/O: start() gives the bytes that
// open the connection and send the request on stream 1, receive() takes what the
// peer sent and gives what to answer (SETTINGS and PING acks, WINDOW_UPDATEs).
// Strict where a hostile or broken peer shows: frame, header list and body sizes
// are bounded, and any protocol error, RST_STREAM or GOAWAY that drops the stream
// ends the exchange with one line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "net/hpack_decoder.h"
#include "net/http2_frame.h"

namespace cuprobe {

struct H2Limits {
  std::uint32_t max_frame_size = kH2DefaultMaxFrameSize;
  std::size_t max_header_list = 64 * 1024;  // each header block, encoded and decoded
  std::size_t max_body = 16 * 1024 * 1024;  // the response's DATA, all frames together
};

class H2ClientStream {
 public:
  explicit H2ClientStream(H2Limits limits = {});

  // The connection preface, SETTINGS, the request's HEADERS and (when `body` is not empty)
  // its DATA, ending the stream.
  std::string start(const std::vector<HeaderField>& headers, std::string_view body);
  // What the peer sent next (any split); the bytes to send back. Throws Error on a protocol
  // error, a reset of the stream or a GOAWAY that leaves it unanswered.
  std::string receive(std::string_view bytes);

  bool done() const { return done_; }  // the response ended (END_STREAM)
  const std::vector<HeaderField>& headers() const { return headers_; }
  // The trailing header block; for a response without a body, its only block.
  const std::vector<HeaderField>& trailers() const { return trailers_; }
  const std::string& body() const { return body_; }

 private:
  void on_frame(const H2Frame& f, std::string& out);
  void on_connection_frame(const H2Frame& f, std::string& out);
  void on_headers(const H2Frame& f);
  void on_data(const H2Frame& f, std::string& out);
  void end_header_block();
  void end_stream();

  H2Limits limits_;
  H2FrameReader reader_;
  HpackDecoder hpack_;
  std::string block_;        // a header block waiting for its CONTINUATIONs
  bool continuing_ = false;  // the last frame was HEADERS/CONTINUATION without END_HEADERS
  bool block_ends_stream_ = false;
  int blocks_ = 0;
  bool done_ = false;
  std::vector<HeaderField> headers_, trailers_;
  std::string body_;
};

// The value of header `name` in `fields` (nullptr when absent).
const std::string* h2_header(const std::vector<HeaderField>& fields, std::string_view name);

}  // namespace cuprobe
