#include "net/grpc_unary_call.h"

#include <fcntl.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/errno_text.h"
#include "common/error.h"
#include "common/utf8.h"
#include "net/fd_wait.h"
#include "net/http_url.h"

namespace cuprobe {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

void connect_unix(Fd& s, const std::string& path, std::int64_t deadline) {
  sockaddr_un addr{};
  if (path.size() >= sizeof addr.sun_path) throw Error("socket path too long");
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.data(), path.size());
  s.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (s.fd < 0) throw Error("socket: " + errno_text(errno));
  if (connect(s.fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) return;
  if (errno != EAGAIN && errno != EINPROGRESS) throw Error("cannot connect: " + errno_text(errno));
  if (!wait_for_fd(s.fd, POLLOUT, deadline)) throw Error("connect timed out");
  int err = 0;
  socklen_t len = sizeof err;
  getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
  if (err != 0) throw Error("cannot connect: " + errno_text(err));
}

void send_all(int fd, std::string_view data, std::int64_t deadline) {
  while (!data.empty()) {
    ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!wait_for_fd(fd, POLLOUT, deadline)) throw Error("sending timed out");
    } else {
      throw Error("send: " + errno_text(errno));
    }
  }
}

using Headers = std::vector<std::pair<std::string, std::string>>;

constexpr std::int32_t kNoStream = -1;
constexpr std::size_t kMaxHeaderList = 64 * 1024;  // each header block, names and values together

// What nghttp2's callbacks gather for the one stream, and the first reason to give up.
struct Exchange {
  std::int32_t stream = kNoStream;
  std::string request;  // the framed message, sent as the request's DATA
  std::size_t sent = 0;
  std::size_t max_body = 0;
  Headers headers, trailers;
  std::size_t header_bytes = 0;
  int blocks = 0;
  std::string body;
  bool done = false;
  bool out_of_memory = false;
  std::string error;
};

const std::string* find_header(const Headers& fields, std::string_view name) {
  for (const auto& [n, v] : fields) {
    if (n == name) return &v;
  }
  return nullptr;
}

int fail(Exchange& x, std::string why) {
  if (x.error.empty()) x.error = std::move(why);
  return NGHTTP2_ERR_CALLBACK_FAILURE;
}

// Runs a callback's body; an exception never crosses nghttp2's C frames: running out of
// memory is remembered and thrown again once nghttp2 has returned.
template <typename Body>
int guarded(void* user, Body body) {
  auto& x = *static_cast<Exchange*>(user);
  try {
    return body(x);
  } catch (const std::bad_alloc&) {
    x.out_of_memory = true;
    return NGHTTP2_ERR_CALLBACK_FAILURE;
  }
}

ssize_t read_request(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length, std::uint32_t* flags,
                     nghttp2_data_source*, void* user) {
  auto& x = *static_cast<Exchange*>(user);
  std::size_t n = std::min(length, x.request.size() - x.sent);
  std::memcpy(buf, x.request.data() + x.sent, n);
  x.sent += n;
  if (x.sent == x.request.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
  return static_cast<ssize_t>(n);
}

int on_begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* user) {
  return guarded(user, [&](Exchange& x) {
    if (frame->hd.type != NGHTTP2_HEADERS || frame->hd.stream_id != x.stream) return 0;  // not a PUSH_PROMISE's
    if (++x.blocks > 2) return fail(x, "HTTP/2: a third header block on the stream");
    x.header_bytes = 0;
    return 0;
  });
}

int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name, std::size_t namelen,
              const std::uint8_t* value, std::size_t valuelen, std::uint8_t, void* user) {
  return guarded(user, [&](Exchange& x) {
    if (frame->hd.type != NGHTTP2_HEADERS || frame->hd.stream_id != x.stream) return 0;
    x.header_bytes += namelen + valuelen + 32;  // RFC 7541's entry size
    if (x.header_bytes > kMaxHeaderList) return fail(x, "HTTP/2: header block too large");
    (x.blocks == 1 ? x.headers : x.trailers)
        .emplace_back(std::string(reinterpret_cast<const char*>(name), namelen),
                      std::string(reinterpret_cast<const char*>(value), valuelen));
    return 0;
  });
}

int on_data_chunk(nghttp2_session*, std::uint8_t, std::int32_t stream, const std::uint8_t* data, std::size_t len,
                  void* user) {
  return guarded(user, [&](Exchange& x) {
    if (stream != x.stream) return 0;
    if (x.body.size() + len > x.max_body) {
      return fail(x, "HTTP/2: response body larger than " + std::to_string(x.max_body) + " bytes");
    }
    x.body.append(reinterpret_cast<const char*>(data), len);
    return 0;
  });
}

int on_frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* user) {
  return guarded(user, [&](Exchange& x) {
    if (frame->hd.type == NGHTTP2_GOAWAY &&
        (frame->goaway.last_stream_id < x.stream || frame->goaway.error_code != 0)) {
      std::string debug(reinterpret_cast<const char*>(frame->goaway.opaque_data),
                        std::min<std::size_t>(frame->goaway.opaque_data_len, 200));
      return fail(x, "HTTP/2: the peer closed the connection (GOAWAY, error code " +
                         std::to_string(frame->goaway.error_code) +
                         (debug.empty() ? "" : ": " + printable_one_line(debug)) + ")");
    }
    // The trailers, or a response of one header block, end the stream (on_stream_close follows).
    return 0;
  });
}

int on_stream_close(nghttp2_session*, std::int32_t stream, std::uint32_t error_code, void* user) {
  return guarded(user, [&](Exchange& x) {
    if (stream != x.stream) return 0;
    if (error_code != NGHTTP2_NO_ERROR) {
      fail(x, "HTTP/2: the stream was reset (error code " + std::to_string(error_code) + ", " +
                  nghttp2_http2_strerror(error_code) + ")");
    }
    x.done = true;
    return 0;
  });
}

// nghttp2's reason for a connection or stream error it found in what the peer sent.
int on_error(nghttp2_session*, int, const char* msg, std::size_t len, void* user) {
  return guarded(user, [&](Exchange& x) {
    if (x.error.empty()) x.error = "HTTP/2: " + printable_one_line(std::string_view(msg, len), 200);
    return 0;
  });
}

// nghttp2 answers a protocol error it found with GOAWAY (the connection) or RST_STREAM (the
// stream); either ends the call.
int on_frame_send(nghttp2_session*, const nghttp2_frame* frame, void* user) {
  return guarded(user, [&](Exchange& x) {
    std::uint32_t code = NGHTTP2_NO_ERROR;
    if (frame->hd.type == NGHTTP2_GOAWAY) code = frame->goaway.error_code;
    if (frame->hd.type == NGHTTP2_RST_STREAM && frame->hd.stream_id == x.stream) code = frame->rst_stream.error_code;
    if (code != NGHTTP2_NO_ERROR && x.error.empty()) {
      x.error = std::string("HTTP/2: the peer broke the protocol (") + nghttp2_http2_strerror(code) + ")";
    }
    return 0;
  });
}

struct Session {
  nghttp2_session* s = nullptr;
  ~Session() {
    if (s) nghttp2_session_del(s);
  }
};

// The client session: no push, bounded header lists, the request on stream 1.
void open_session(Session& session, Exchange& x, const GrpcCall& call) {
  nghttp2_session_callbacks* cb = nullptr;
  if (nghttp2_session_callbacks_new(&cb) != 0) throw std::bad_alloc();
  nghttp2_session_callbacks_set_on_begin_headers_callback(cb, on_begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data_chunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame_recv);
  nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_stream_close);
  nghttp2_session_callbacks_set_error_callback2(cb, on_error);
  nghttp2_session_callbacks_set_on_frame_send_callback(cb, on_frame_send);
  nghttp2_option* option = nullptr;
  if (nghttp2_option_new(&option) != 0) {
    nghttp2_session_callbacks_del(cb);
    throw std::bad_alloc();
  }
  nghttp2_option_set_max_reserved_remote_streams(option, 0);  // a pushed stream is refused at once
  int rc = nghttp2_session_client_new2(&session.s, cb, &x, option);
  nghttp2_option_del(option);
  nghttp2_session_callbacks_del(cb);
  if (rc != 0) throw std::bad_alloc();
  const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
                                             {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, kMaxHeaderList}};
  if (nghttp2_submit_settings(session.s, NGHTTP2_FLAG_NONE, settings, 2) != 0) throw Error("HTTP/2: SETTINGS");
  // The server is told a second more than our deadline: ours decides (one message, no race
  // with the server's own DEADLINE_EXCEEDED), the server still gives up on its own soon after.
  const std::string timeout = std::to_string(call.timeout_ms + 1000) + "m";
  const std::pair<std::string_view, std::string_view> fields[] = {{":method", "POST"},
                                                                  {":scheme", "http"},
                                                                  {":path", call.method},
                                                                  {":authority", "localhost"},
                                                                  {"content-type", "application/grpc"},
                                                                  {"te", "trailers"},
                                                                  {"grpc-timeout", timeout},
                                                                  {"user-agent", "cuprobe"}};
  std::vector<nghttp2_nv> nva;
  for (const auto& [n, v] : fields) {
    nva.push_back({const_cast<std::uint8_t*>(reinterpret_cast<const std::uint8_t*>(n.data())),
                   const_cast<std::uint8_t*>(reinterpret_cast<const std::uint8_t*>(v.data())), n.size(), v.size(),
                   NGHTTP2_NV_FLAG_NONE});
  }
  nghttp2_data_provider body{};
  body.read_callback = read_request;
  x.stream = nghttp2_submit_request(session.s, nullptr, nva.data(), nva.size(), &body, nullptr);
  if (x.stream < 0) throw Error(std::string("HTTP/2: ") + nghttp2_strerror(x.stream));
}

// Sends what the session has queued (the request, acks, window updates), then reads until the
// stream ends.
void exchange(int fd, nghttp2_session* s, Exchange& x, std::int64_t deadline, std::int64_t timeout_ms) {
  std::array<std::uint8_t, 16384> buf;
  while (true) {
    while (true) {
      const std::uint8_t* out = nullptr;
      auto n = nghttp2_session_mem_send(s, &out);
      if (n < 0 && x.out_of_memory) throw std::bad_alloc();
      if (n < 0) throw Error(std::string("HTTP/2: ") + nghttp2_strerror(static_cast<int>(n)));
      if (n == 0) break;
      send_all(fd, std::string_view(reinterpret_cast<const char*>(out), static_cast<std::size_t>(n)), deadline);
    }
    if (x.out_of_memory) throw std::bad_alloc();
    if (!x.error.empty()) throw Error(x.error);
    if (x.done) return;
    if (!nghttp2_session_want_read(s)) throw Error("HTTP/2: the connection ended before the response");
    if (!wait_for_fd(fd, POLLIN, deadline)) {
      throw Error("no answer within " + std::to_string(timeout_ms) + " ms");
    }
    ssize_t n = recv(fd, buf.data(), buf.size(), 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n < 0) throw Error("recv: " + errno_text(errno));
    if (n == 0) throw Error("the connection closed before the response ended");
    auto used = nghttp2_session_mem_recv(s, buf.data(), static_cast<std::size_t>(n));
    if (x.out_of_memory) throw std::bad_alloc();
    if (!x.error.empty()) throw Error(x.error);
    if (used < 0) throw Error(std::string("HTTP/2: ") + nghttp2_strerror(static_cast<int>(used)));
  }
}

void check_status(const Exchange& x) {
  // A response of one header block (trailers-only) carries the status with the headers.
  const Headers& trailers = x.blocks == 1 ? x.headers : x.trailers;
  const std::string* http = find_header(x.headers, ":status");
  if (!http) throw Error("response without :status");
  if (*http != "200") throw Error("HTTP status " + printable_one_line(*http, 64));
  const std::string* status = find_header(trailers, "grpc-status");
  if (!status) throw Error("response without grpc-status");
  if (*status == "0") return;
  int code = -1;
  try {
    code = std::stoi(*status);
  } catch (const std::exception&) {
  }
  const std::string* message = find_header(trailers, "grpc-message");
  std::string text = message ? printable_one_line(percent_decode(*message)) : "";
  if (text.size() > 300) text = text.substr(0, 300) + "...";
  throw Error("grpc-status " + printable_one_line(*status, 64) + " " + grpc_status_name(code) +
              (text.empty() ? "" : ": " + text));
}

}  // namespace

std::string grpc_status_name(int code) {
  static const char* const kNames[] = {
      "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
      "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
      "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
      "DATA_LOSS", "UNAUTHENTICATED"};
  if (code >= 0 && code <= 16) return kNames[code];
  return "(unknown code)";
}

std::string grpc_frame(std::string_view message) {
  std::string out(1, '\0');
  auto n = static_cast<std::uint32_t>(message.size());
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((n >> shift) & 0xff);
  out.append(message);
  return out;
}

std::string grpc_unframe(std::string_view body, std::size_t max_message) {
  if (body.empty()) throw Error("response without a message");
  if (body.size() < 5) throw Error("response message prefix truncated");
  if (body[0] != 0) throw Error("compressed response message (none was asked for)");
  std::uint32_t n = 0;
  for (int i = 1; i <= 4; ++i) n = (n << 8) | static_cast<unsigned char>(body[i]);
  if (n > max_message) throw Error("response message of " + std::to_string(n) + " bytes, above the limit");
  if (body.size() - 5 < n) throw Error("response message truncated");
  if (body.size() - 5 > n) throw Error("more than one message in a unary response");
  return std::string(body.substr(5, n));
}

std::string grpc_unary_call(const GrpcCall& call, std::string_view request) {
  const std::int64_t deadline = mono_ns() + call.timeout_ms * 1'000'000;
  try {
    Fd s;
    connect_unix(s, call.socket_path, deadline);
    Exchange x;
    x.request = grpc_frame(request);
    x.max_body = call.max_message + 5;
    Session session;
    open_session(session, x, call);
    exchange(s.fd, session.s, x, deadline, call.timeout_ms);
    check_status(x);
    return grpc_unframe(x.body, call.max_message);
  } catch (const Error& e) {
    throw Error(printable_one_line(call.socket_path) + ": " + call.method + ": " + e.what());
  }
}

}  // namespace cuprobe
