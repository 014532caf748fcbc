#include "net/grpc_unary_call.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "common/clock.h"
#include "common/errno_text.h"
#include "common/error.h"
#include "common/utf8.h"
#include "net/fd_wait.h"
#include "net/http2_client_stream.h"
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

// Reads until the stream ends; the exchange answers acks and window updates as it goes.
void exchange(int fd, H2ClientStream& h2, std::int64_t deadline, std::int64_t timeout_ms) {
  std::array<char, 16384> buf;
  while (!h2.done()) {
    if (!wait_for_fd(fd, POLLIN, deadline)) {
      throw Error("no answer within " + std::to_string(timeout_ms) + " ms");
    }
    ssize_t n = recv(fd, buf.data(), buf.size(), 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n < 0) throw Error("recv: " + errno_text(errno));
    if (n == 0) throw Error("the connection closed before the response ended");
    std::string reply = h2.receive(std::string_view(buf.data(), static_cast<std::size_t>(n)));
    if (!reply.empty()) send_all(fd, reply, deadline);
  }
}

void check_status(const H2ClientStream& h2) {
  const std::string* http = h2_header(h2.headers(), ":status");
  if (!http) throw Error("response without :status");
  if (*http != "200") throw Error("HTTP status " + printable_one_line(*http, 64));
  const std::string* status = h2_header(h2.trailers(), "grpc-status");
  if (!status) throw Error("response without grpc-status");
  if (*status == "0") return;
  int code = -1;
  try {
    code = std::stoi(*status);
  } catch (const std::exception&) {
  }
  const std::string* message = h2_header(h2.trailers(), "grpc-message");
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
    H2Limits limits;
    limits.max_body = call.max_message + 5;
    H2ClientStream h2(limits);
    send_all(s.fd,
             h2.start({{":method", "POST"},
                       {":scheme", "http"},
                       {":path", call.method},
                       {":authority", "localhost"},
                       {"content-type", "application/grpc"},
                       {"te", "trailers"},
                       // The server is told a second more than our deadline: ours decides (one message, no race
                       // with the server's own DEADLINE_EXCEEDED), the server still gives up on its own soon after.
                       {"grpc-timeout", std::to_string(call.timeout_ms + 1000) + "m"},
                       {"user-agent", "cuprobe"}},
                      grpc_frame(request)),
             deadline);
    exchange(s.fd, h2, deadline, call.timeout_ms);
    check_status(h2);
    return grpc_unframe(h2.body(), call.max_message);
  } catch (const Error& e) {
    throw Error(printable_one_line(call.socket_path) + ": " + call.method + ": " + e.what());
  }
}

}  // namespace cuprobe
