#include "net/http_server.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <vector>

#include "common/clock.h"
#include "common/error.h"
#include "net/descriptor_limit.h"

namespace cuprobe {
namespace {

constexpr int kStopCheckMs = 100;
constexpr std::size_t kAcceptsPerRound = 64;         // then the open connections get their turn
constexpr std::int64_t kAcceptPauseNs = 50'000'000;  // out of descriptors with none to close

std::string reason_phrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 431:
      return "Request Header Fields Too Large";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

std::string format_response(const HttpResponse& resp, bool head_only) {
  std::string out = "HTTP/1.1 " + std::to_string(resp.status) + " " + reason_phrase(resp.status) +
                    "\r\nContent-Type: " + resp.content_type +
                    "\r\nContent-Length: " + std::to_string(resp.body.size()) + "\r\nConnection: close\r\n\r\n";
  if (!head_only) out += resp.body;
  return out;
}

std::int64_t ms_to_ns(std::chrono::milliseconds ms) { return static_cast<std::int64_t>(ms.count()) * 1'000'000; }

struct Connection {
  int fd = -1;  // -1 once closed
  HttpRequestParser parser;
  std::string out;  // the response, once the request is read
  std::size_t sent = 0;
  std::int64_t deadline_ns = 0;  // for the request head, then for the response
  bool writing() const { return !out.empty(); }
};

// The connections of one serve() call, in the order they were accepted.
class ConnectionLoop {
 public:
  ConnectionLoop(int listen_fd, const HttpServerLimits& limits, const HttpHandler& handler)
      : listen_fd_(listen_fd), limits_(limits), handler_(handler) {}
  ~ConnectionLoop() {
    for (auto& c : connections_) close_connection(c);
  }
  ConnectionLoop(const ConnectionLoop&) = delete;
  ConnectionLoop& operator=(const ConnectionLoop&) = delete;

  // Waits up to kStopCheckMs for any socket, then serves what is ready.
  void run_once() {
    std::int64_t now = mono_ns();
    int timeout_ms = kStopCheckMs;
    std::vector<pollfd> fds;
    fds.reserve(connections_.size() + 1);
    fds.push_back({listen_fd_, static_cast<short>(now < accept_paused_until_ ? 0 : POLLIN), 0});
    for (auto& c : connections_) {
      if (c.deadline_ns <= now) close_connection(c);
      fds.push_back({c.fd, static_cast<short>(c.writing() ? POLLOUT : POLLIN), 0});  // fd -1: ignored by poll
      if (c.fd >= 0) timeout_ms = std::min<std::int64_t>(timeout_ms, (c.deadline_ns - now + 999'999) / 1'000'000);
    }
    int ready = poll(fds.data(), fds.size(), std::max(timeout_ms, 1));
    if (ready > 0) {
      now = mono_ns();
      for (std::size_t i = 0; i + 1 < fds.size(); ++i) {
        Connection& c = connections_[i];
        if (c.fd < 0 || fds[i + 1].revents == 0) continue;
        if (c.writing()) {
          send_some(c);
        } else {
          read_some(c, now);
        }
      }
      if (fds[0].revents & POLLIN) accept_some(now);
    }
    std::erase_if(connections_, [](const Connection& c) { return c.fd < 0; });
  }

 private:
  void close_connection(Connection& c) {
    if (c.fd < 0) return;
    close(c.fd);
    c.fd = -1;
    --open_;
  }

  // Closes the oldest connection still waiting for its request (else the oldest); false when none is open.
  bool close_oldest() {
    auto waiting = std::find_if(connections_.begin(), connections_.end(),
                                [](const Connection& c) { return c.fd >= 0 && !c.writing(); });
    if (waiting == connections_.end()) {
      waiting = std::find_if(connections_.begin(), connections_.end(), [](const Connection& c) { return c.fd >= 0; });
    }
    if (waiting == connections_.end()) return false;
    close_connection(*waiting);
    return true;
  }

  void accept_some(std::int64_t now) {
    bool out_of_descriptors = false;
    for (std::size_t n = 0; n < kAcceptsPerRound;) {
      int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd >= 0) {
        if (open_ >= limits_.max_connections) close_oldest();
        Connection c;
        c.fd = fd;
        c.parser = HttpRequestParser(limits_.max_head_bytes);
        c.deadline_ns = now + ms_to_ns(limits_.head_timeout);
        connections_.push_back(std::move(c));
        ++open_;
        ++n;
        continue;
      }
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if ((errno == EMFILE || errno == ENFILE) && !out_of_descriptors && close_oldest()) {
        out_of_descriptors = true;  // one retry: the descriptor just closed
        continue;
      }
      if (errno == EMFILE || errno == ENFILE) accept_paused_until_ = now + kAcceptPauseNs;
      return;  // EAGAIN: none left
    }
  }

  void read_some(Connection& c, std::int64_t now) {
    char buf[4096];
    while (c.parser.state() == HttpRequestParser::State::kHead) {
      ssize_t n = recv(c.fd, buf, sizeof buf, 0);
      if (n > 0) {
        c.parser.feed(std::string_view(buf, static_cast<std::size_t>(n)));
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return;
      } else {
        close_connection(c);  // closed or reset before the request was complete
        return;
      }
    }
    respond(c, now);
  }

  void respond(Connection& c, std::int64_t now) {
    const HttpRequest& req = c.parser.request();
    HttpResponse resp;
    if (c.parser.state() == HttpRequestParser::State::kFailed) {
      int status = c.parser.error_status();
      resp = {status, "text/plain; charset=utf-8",
              status == 431 ? "request head too large\n" : "not an HTTP request\n"};
    } else if (req.method != "GET" && req.method != "HEAD") {
      resp = {405, "text/plain; charset=utf-8", "only GET and HEAD\n"};
    } else {
      resp = handler_(req);
    }
    c.out = format_response(resp, req.method == "HEAD");
    c.deadline_ns = now + ms_to_ns(limits_.write_timeout);
    send_some(c);
  }

  // Sends what the socket takes; closes the connection once all is sent or the peer is gone.
  void send_some(Connection& c) {
    while (c.sent < c.out.size()) {
      ssize_t n = send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL);
      if (n > 0) {
        c.sent += static_cast<std::size_t>(n);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return;
      } else {
        break;
      }
    }
    close_connection(c);
  }

  int listen_fd_;
  const HttpServerLimits& limits_;
  const HttpHandler& handler_;
  std::vector<Connection> connections_;
  std::size_t open_ = 0;
  std::int64_t accept_paused_until_ = 0;
};

}  // namespace

std::string ListenAddress::text() const {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

ListenAddress parse_listen_address(std::string_view text) {
  ListenAddress a;
  std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos)
    throw Error("--listen " + std::string(text) + ": expected ADDR:PORT", kExitUsage);
  std::string_view host = text.substr(0, colon), port = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  unsigned p = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size() || p > 65535) {
    throw Error("--listen " + std::string(text) + ": '" + std::string(port) + "' is not a port (0-65535)", kExitUsage);
  }
  a.host = host.empty() ? "0.0.0.0" : std::string(host);
  a.port = static_cast<std::uint16_t>(p);
  return a;
}

HttpServer::HttpServer(const ListenAddress& address, HttpServerLimits limits) : limits_(limits) {
  if (limits_.max_connections == 0) limits_.max_connections = 1;
  // Room for the connection cap (a lower hard limit is handled when accept() runs out).
  raise_descriptor_limit(limits_.max_connections + kDescriptorHeadroom);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* res = nullptr;
  std::string port = std::to_string(address.port);
  std::string where = address.text();
  if (int r = getaddrinfo(address.host.c_str(), port.c_str(), &hints, &res); r != 0) {
    throw Error("cannot listen on " + where + ": " + gai_strerror(r));
  }
  std::string error = "no address";
  for (addrinfo* ai = res; ai; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
    if (fd < 0) {
      error = std::strerror(errno);
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0) {
      fd_ = fd;
      break;
    }
    error = std::strerror(errno);
    close(fd);
  }
  freeaddrinfo(res);
  if (fd_ < 0) throw Error("cannot listen on " + where + ": " + error);
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  getsockname(fd_, reinterpret_cast<sockaddr*>(&bound), &len);
  port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                            : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

HttpServer::~HttpServer() {
  if (fd_ >= 0) close(fd_);
}

void HttpServer::serve(const HttpHandler& handler, const volatile int* stop) {
  ConnectionLoop loop(fd_, limits_, handler);
  while (!*stop) loop.run_once();
}

}  // namespace cuprobe
