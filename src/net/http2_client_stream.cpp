#include "net/http2_client_stream.h"

#include "common/error.h"
#include "net/hpack_encoder.h"

namespace cuprobe {
namespace {

constexpr std::uint32_t kStream = 1;

std::string setting(std::uint16_t id, std::uint32_t value) {
  std::string s;
  s += static_cast<char>(id >> 8);
  s += static_cast<char>(id & 0xff);
  h2_put_u32(s, value);
  return s;
}

// The payload of a HEADERS or DATA frame without its padding (and priority fields).
std::string_view unpadded(const H2Frame& f, std::size_t priority_bytes) {
  std::string_view p = f.payload;
  std::size_t pad = 0;
  if (f.has(h2_flag::kPadded)) {
    if (p.empty()) throw Error("HTTP/2: padded frame without a pad length");
    pad = static_cast<unsigned char>(p[0]);
    p.remove_prefix(1);
  }
  if (pad + priority_bytes > p.size()) throw Error("HTTP/2: padding longer than the frame");
  return p.substr(priority_bytes, p.size() - priority_bytes - pad);
}

std::string window_update(std::uint32_t stream, std::uint32_t increment) {
  std::string p;
  h2_put_u32(p, increment);
  return h2_frame(H2Type::kWindowUpdate, 0, stream, p);
}

}  // namespace

const std::string* h2_header(const std::vector<HeaderField>& fields, std::string_view name) {
  for (const auto& f : fields) {
    if (f.name == name) return &f.value;
  }
  return nullptr;
}

H2ClientStream::H2ClientStream(H2Limits limits)
    : limits_(limits), reader_(limits.max_frame_size), hpack_(4096, limits.max_header_list) {}

std::string H2ClientStream::start(const std::vector<HeaderField>& headers, std::string_view body) {
  std::string out(kH2ClientPreface);
  out += h2_frame(H2Type::kSettings, 0, 0,
                  setting(0x2, 0) + setting(0x5, limits_.max_frame_size) +
                      setting(0x6, static_cast<std::uint32_t>(limits_.max_header_list)));
  std::string block = hpack_encode(headers);
  if (block.size() > kH2DefaultMaxFrameSize) throw Error("HTTP/2: request headers too large");
  std::uint8_t flags = h2_flag::kEndHeaders | (body.empty() ? h2_flag::kEndStream : 0);
  out += h2_frame(H2Type::kHeaders, flags, kStream, block);
  for (std::size_t at = 0; at < body.size(); at += kH2DefaultMaxFrameSize) {
    std::string_view part = body.substr(at, kH2DefaultMaxFrameSize);
    bool last = at + part.size() == body.size();
    out += h2_frame(H2Type::kData, last ? h2_flag::kEndStream : 0, kStream, part);
  }
  return out;
}

std::string H2ClientStream::receive(std::string_view bytes) {
  reader_.feed(bytes);
  std::string out;
  while (!done_) {
    auto f = reader_.next();
    if (!f) break;
    on_frame(*f, out);
  }
  return out;
}

void H2ClientStream::on_frame(const H2Frame& f, std::string& out) {
  if (continuing_ && !(f.is(H2Type::kContinuation) && f.stream == kStream)) {
    throw Error("HTTP/2: header block interrupted before its END_HEADERS");
  }
  if (f.stream == 0) return on_connection_frame(f, out);
  if (f.is(H2Type::kHeaders) || f.is(H2Type::kContinuation) || f.is(H2Type::kData) || f.is(H2Type::kRstStream)) {
    if (f.stream != kStream) throw Error("HTTP/2: frame on stream " + std::to_string(f.stream) + ", never opened");
  }
  if (f.is(H2Type::kHeaders)) return on_headers(f);
  if (f.is(H2Type::kContinuation)) {
    if (!continuing_) throw Error("HTTP/2: CONTINUATION without a HEADERS frame before it");
    block_ += f.payload;
    if (block_.size() > limits_.max_header_list) throw Error("HTTP/2: header block too large");
    if (f.has(h2_flag::kEndHeaders)) end_header_block();
    return;
  }
  if (f.is(H2Type::kData)) return on_data(f, out);
  if (f.is(H2Type::kRstStream)) {
    if (f.payload.size() != 4) throw Error("HTTP/2: RST_STREAM of the wrong size");
    throw Error("HTTP/2: the peer reset the stream (error code " + std::to_string(h2_read_u32(f.payload)) + ")");
  }
  if (f.is(H2Type::kPushPromise)) throw Error("HTTP/2: PUSH_PROMISE though push is disabled");
  if (f.is(H2Type::kSettings) || f.is(H2Type::kPing) || f.is(H2Type::kGoaway)) {
    throw Error("HTTP/2: connection frame on stream " + std::to_string(f.stream));
  }
  // PRIORITY, WINDOW_UPDATE for the stream, unknown types: nothing to do (cuprobe's
  // request is sent whole before any answer).
}

void H2ClientStream::on_connection_frame(const H2Frame& f, std::string& out) {
  if (f.is(H2Type::kSettings)) {
    if (f.has(h2_flag::kAck)) {
      if (!f.payload.empty()) throw Error("HTTP/2: SETTINGS ack with a payload");
      return;
    }
    if (f.payload.size() % 6 != 0) throw Error("HTTP/2: SETTINGS of the wrong size");
    out += h2_frame(H2Type::kSettings, h2_flag::kAck, 0, "");
  } else if (f.is(H2Type::kPing)) {
    if (f.payload.size() != 8) throw Error("HTTP/2: PING of the wrong size");
    if (!f.has(h2_flag::kAck)) out += h2_frame(H2Type::kPing, h2_flag::kAck, 0, f.payload);
  } else if (f.is(H2Type::kGoaway)) {
    if (f.payload.size() < 8) throw Error("HTTP/2: GOAWAY of the wrong size");
    std::uint32_t last = h2_read_u32(f.payload) & 0x7fffffffu, code = h2_read_u32(f.payload.substr(4));
    if (last < kStream || code != 0) {
      std::string debug = f.payload.substr(8, 200);
      throw Error("HTTP/2: the peer closed the connection (GOAWAY, error code " + std::to_string(code) +
                  (debug.empty() ? "" : ": " + printable_one_line(debug)) + ")");
    }
  } else if (f.is(H2Type::kWindowUpdate)) {
    if (f.payload.size() != 4) throw Error("HTTP/2: WINDOW_UPDATE of the wrong size");
  } else if (f.is(H2Type::kHeaders) || f.is(H2Type::kContinuation) || f.is(H2Type::kData) || f.is(H2Type::kRstStream) ||
             f.is(H2Type::kPushPromise) || f.is(H2Type::kPriority)) {
    throw Error("HTTP/2: stream frame (type " + std::to_string(f.type) + ") on stream 0");
  }
}

void H2ClientStream::on_headers(const H2Frame& f) {
  if (blocks_ >= 2) throw Error("HTTP/2: a third header block on the stream");
  std::string_view fragment = unpadded(f, f.has(h2_flag::kPriority) ? 5 : 0);
  if (fragment.size() > limits_.max_header_list) throw Error("HTTP/2: header block too large");
  block_.assign(fragment);
  block_ends_stream_ = f.has(h2_flag::kEndStream);
  continuing_ = true;
  if (f.has(h2_flag::kEndHeaders)) end_header_block();
}

void H2ClientStream::end_header_block() {
  continuing_ = false;
  std::vector<HeaderField> fields = hpack_.decode(block_);
  block_.clear();
  ++blocks_;
  if (blocks_ == 1) {
    headers_ = fields;
    if (block_ends_stream_) trailers_ = std::move(fields);
  } else {
    if (!block_ends_stream_) throw Error("HTTP/2: trailers without END_STREAM");
    trailers_ = std::move(fields);
  }
  if (block_ends_stream_) end_stream();
}

void H2ClientStream::on_data(const H2Frame& f, std::string& out) {
  if (blocks_ != 1) throw Error("HTTP/2: DATA outside the response body");
  std::string_view data = unpadded(f, 0);
  if (body_.size() + data.size() > limits_.max_body) {
    throw Error("HTTP/2: response body larger than " + std::to_string(limits_.max_body) + " bytes");
  }
  body_.append(data);
  if (f.has(h2_flag::kEndStream)) return end_stream();
  // Give back what the frame used (padding included) so the peer never waits for window.
  if (!f.payload.empty()) {
    auto n = static_cast<std::uint32_t>(f.payload.size());
    out += window_update(0, n) + window_update(kStream, n);
  }
}

void H2ClientStream::end_stream() { done_ = true; }

}  // namespace cuprobe
