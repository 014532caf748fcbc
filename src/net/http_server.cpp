#include "net/http_server.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "common/clock.h"
#include "common/error.h"

namespace cuprobe {
namespace {

constexpr std::size_t kMaxRequest = 16 << 10;
constexpr std::int64_t kDeadlineNs = 5'000'000'000;

// Waits for `events` until the deadline; false on timeout or error.
bool wait_for(int fd, short events, std::int64_t deadline_ns) {
  for (;;) {
    std::int64_t left_ms = (deadline_ns - mono_ns()) / 1'000'000;
    if (left_ms <= 0) return false;
    pollfd p{fd, events, 0};
    int r = poll(&p, 1, static_cast<int>(left_ms));
    if (r > 0) return true;
    if (r == 0 || errno != EINTR) return false;
  }
}

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
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

bool header_is(std::string_view line, std::string_view name) {
  if (line.size() <= name.size() || line[name.size()] != ':') return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(line[i])) != name[i]) return false;
  }
  return true;
}

// Parses the request head; false when it is not HTTP.
bool parse_request(std::string_view head, HttpRequest& req) {
  std::size_t eol = head.find("\r\n");
  std::string_view line = head.substr(0, eol);
  std::size_t sp1 = line.find(' ');
  std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.substr(sp2 + 1, 5) != "HTTP/") return false;
  req.method = std::string(line.substr(0, sp1));
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  req.path = std::string(target.substr(0, target.find('?')));
  while (eol != std::string_view::npos) {
    std::size_t next = head.find("\r\n", eol + 2);
    std::string_view h = head.substr(eol + 2, next == std::string_view::npos ? next : next - eol - 2);
    if (header_is(h, "accept")) {
      std::string_view v = h.substr(7);
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      req.accept = std::string(v);
    }
    eol = next;
  }
  return true;
}

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

HttpServer::HttpServer(const ListenAddress& address) {
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
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      error = std::strerror(errno);
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 64) == 0) {
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

void HttpServer::serve(const std::function<HttpResponse(const HttpRequest&)>& handler, const volatile int* stop) {
  while (!*stop) {
    pollfd p{fd_, POLLIN, 0};
    int r = poll(&p, 1, 100);
    if (r <= 0) continue;  // timeout, or EINTR from a stop signal
    int client = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    handle_connection(client, handler);
    close(client);
  }
}

void HttpServer::handle_connection(int fd, const std::function<HttpResponse(const HttpRequest&)>& handler) {
  std::int64_t deadline = mono_ns() + kDeadlineNs;
  std::string head;
  char buf[4096];
  while (head.find("\r\n\r\n") == std::string::npos) {
    if (head.size() > kMaxRequest || !wait_for(fd, POLLIN, deadline)) return;
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    head.append(buf, static_cast<std::size_t>(n));
  }
  HttpRequest req;
  HttpResponse resp;
  if (!parse_request(head, req)) {
    resp = {400, "text/plain; charset=utf-8", "not an HTTP request\n"};
  } else if (req.method != "GET" && req.method != "HEAD") {
    resp = {405, "text/plain; charset=utf-8", "only GET and HEAD\n"};
  } else {
    resp = handler(req);
  }
  std::string out = "HTTP/1.1 " + std::to_string(resp.status) + " " + reason_phrase(resp.status) +
                    "\r\nContent-Type: " + resp.content_type +
                    "\r\nContent-Length: " + std::to_string(resp.body.size()) + "\r\nConnection: close\r\n\r\n";
  if (req.method != "HEAD") out += resp.body;
  std::size_t sent = 0;
  while (sent < out.size()) {
    if (!wait_for(fd, POLLOUT, deadline)) return;
    ssize_t n = send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    sent += static_cast<std::size_t>(n);
  }
}

}  // namespace cuprobe
