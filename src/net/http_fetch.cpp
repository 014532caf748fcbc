#include "net/http_fetch.h"

#include <netinet/in.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "common/clock.h"
#include "common/error.h"
#include "common/utf8.h"
#include "net/fd_wait.h"
#include "net/http_request.h"
#include "net/http_response_parser.h"
#include "net/proxy_tunnel.h"
#include "net/socket_address.h"
#include "net/tls_session.h"

namespace cuprobe {
namespace {

constexpr std::size_t kMaxBody = kMaxFetchBody;

struct BodyCollector final : HttpBodySink {
  std::string body;
  std::uint64_t bytes = 0;  // all of it, kept or not
  void on_body(std::string_view data) override {
    bytes += data.size();
    if (body.size() < kMaxBody) body.append(data.substr(0, kMaxBody - body.size()));
  }
};

class Socket {
 public:
  ~Socket() {
    if (fd >= 0) close(fd);
  }
  int fd = -1;
};

// Sends all of `data`; false only when the deadline passed. A send error ends
// the sending quietly: the server may have answered already (e.g. 413).
bool send_all(int fd, const std::string& data, std::int64_t deadline) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!wait_for_fd(fd, POLLOUT, deadline)) return false;
    } else {
      return true;
    }
  }
  return true;
}

// Connects to the first address of `hop` that accepts; nullptr, or the reason key with `why`.
const char* connect_to(const HttpUrl& hop, std::int64_t deadline, Socket& s, std::string& why) {
  std::vector<SocketAddress> addresses = resolve_addresses(hop.host, hop.port, why);
  if (addresses.empty()) return "resolve_failed";
  int err = 0;
  for (const SocketAddress& address : addresses) {  // the first that accepts
    if (s.fd >= 0) close(s.fd);
    s.fd = socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s.fd < 0) {
      why = std::string("socket(): ") + std::strerror(errno);
      return "connect_failed";
    }
    err = connect(s.fd, address.get(), address.length) < 0 && errno != EINPROGRESS ? errno : 0;
    if (err) continue;
    if (!wait_for_fd(s.fd, POLLOUT, deadline)) {
      why = "connect timed out";
      return "timeout";
    }
    socklen_t len = sizeof err;
    getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (!err) break;
  }
  if (!err) return nullptr;
  why = std::strerror(err);
  return err == ECONNREFUSED ? "connect_refused" : "connect_failed";
}

// CONNECT through the proxy to `server`; "" once the tunnel stands, else one line naming the proxy.
std::string open_tunnel(int fd, const HttpUrl& server, const ProxyServer& proxy, std::int64_t deadline) {
  const std::string at = "the proxy " + proxy.display();
  if (!send_all(fd, connect_request(server, proxy), deadline)) return at + " did not take CONNECT in time";
  ConnectReply reply(server, proxy);
  char buf[4096];
  while (reply.state() == ConnectReply::State::kReading) {
    if (!wait_for_fd(fd, POLLIN, deadline)) return at + " did not answer CONNECT " + server.authority() + " in time";
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      reply.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      return at + " closed the connection before answering CONNECT " + server.authority();
    }
  }
  return reply.error();
}

HttpFetchResult fetch_once(const HttpUrl& server, const HttpClientConfig& client, const char* method,
                           const std::string& path, const std::string& json_body, std::int64_t deadline) {
  HttpFetchResult result;
  auto failed = [&](const char* why, std::string what) {
    result.error = why;
    result.detail = repair_utf8(what);
    return result;
  };
  const ProxyServer* proxy = client.proxies.route(server);
  Socket s;
  std::string why;
  if (const char* key = connect_to(proxy ? proxy->url : server, deadline, s, why)) {
    return failed(key, proxy ? why + " (through the proxy " + proxy->display() + ")" : why);
  }
  if (proxy) note_proxy_use(*proxy, server);
  if (proxy && server.https) {
    std::string refused = open_tunnel(s.fd, server, *proxy, deadline);
    if (!refused.empty()) return failed("proxy_failed", refused);
  }

  std::string out = build_simple_request(method, path, server.authority(), json_body, client.extra_headers);
  if (proxy && !server.https) out = for_next_hop(std::move(out), server.base(), proxy->header_lines());
  std::unique_ptr<TlsSession> tls;
  if (server.https) {
    if (!client.tls) return failed("tls_failed", "https URL without TLS settings");
    tls = std::make_unique<TlsSession>(client.tls, server.host);
    tls->write(out);
    out.clear();
    tls->take_outgoing(out);
  }
  HttpResponseParser parser;
  BodyCollector body;
  std::string plain;
  char buf[16384];
  while (!parser.done()) {
    if (!send_all(s.fd, out, deadline)) return failed("timeout", "sending the request timed out");
    out.clear();
    if (!wait_for_fd(s.fd, POLLIN, deadline)) return failed("timeout", "no complete response before the deadline");
    ssize_t n = read(s.fd, buf, sizeof buf);
    if (n > 0) {
      std::string_view data(buf, static_cast<std::size_t>(n));
      if (tls) {
        plain.clear();
        if (!tls->receive(data, plain)) return failed("tls_failed", tls->error());
        tls->take_outgoing(out);
        data = plain;
      }
      if (!data.empty() && !parser.feed(data, body)) return failed(parser.error().c_str(), parser.error_detail());
      if (tls && tls->closed() && !parser.done() && !parser.finish_on_eof()) {
        return failed(parser.error().c_str(), parser.error_detail());
      }
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      if (!parser.finish_on_eof()) return failed(parser.error().c_str(), parser.error_detail());
    }
  }
  result.responded = true;
  result.status = parser.status();
  result.body = std::move(body.body);
  result.body_bytes = body.bytes;
  result.location = parser.location();
  if (proxy && !server.https && result.status == 407) {
    result.detail = "the proxy " + proxy->display() +
                    " asks for credentials (407): give them as http://USER:PASSWORD@" + proxy->url.authority() +
                    " in " + proxy->variable;
  }
  return result;
}

bool is_redirect(int status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// The user's headers (-H, --api-key) are given for the URL's origin: scheme, host and port.
bool same_origin(const HttpUrl& a, const HttpUrl& b) {
  return a.https == b.https && a.port == b.port && strcasecmp(a.host.c_str(), b.host.c_str()) == 0;
}

// Once per process: which headers a redirect did not carry, and where to.
void say_headers_withheld(const HttpUrl& from, const HttpUrl& to) {
  static std::atomic<bool> said{false};
  if (said.exchange(true)) return;
  std::fprintf(stderr,
               "cuprobe: a redirect from %s leads to %s (another scheme, host or port): the -H headers and "
               "Authorization are not sent there\n",
               repair_utf8(from.base()).c_str(), repair_utf8(to.base()).c_str());
}

}  // namespace

HttpFetchResult http_fetch(const HttpUrl& server, const HttpClientConfig& client, const char* method,
                           const std::string& path, const std::string& json_body, std::chrono::nanoseconds timeout) {
  std::int64_t deadline = mono_ns() + timeout.count();
  HttpUrl at = server;
  HttpClientConfig config = client;
  std::string current_path = path, current_method = method, body = json_body;
  std::vector<std::string> seen{at.base() + current_path};
  bool withheld = false;  // the user's headers were left out of a hop
  for (int hops = 0;; ++hops) {
    HttpFetchResult r = fetch_once(at, config, current_method.c_str(), current_path, body, deadline);
    r.redirects = hops;
    r.headers_withheld = withheld;
    if (hops > 0) r.url = at.base() + current_path;
    if (!r.responded || !is_redirect(r.status) || r.location.empty()) return r;
    if (hops == kMaxRedirects) {
      r.detail = "more than " + std::to_string(kMaxRedirects) + " redirects";
      return r;
    }
    HttpUrl next = at;
    std::string next_path;
    if (r.location.find("://") != std::string::npos) {
      try {
        next = parse_http_url(r.location);
      } catch (const Error& e) {
        r.detail = "cannot follow the redirect to '" + repair_utf8(r.location) + "': " + e.what();
        return r;
      }
      next_path = next.path.empty() ? "/" : next.path;
      next.path.clear();
    } else if (r.location.front() == '/') {
      next_path = r.location;
    } else {  // relative to the current path's directory
      std::string dir = current_path.substr(0, current_path.rfind('/') + 1);
      next_path = (dir.empty() ? "/" : dir) + r.location;
    }
    if (std::find(seen.begin(), seen.end(), next.base() + next_path) != seen.end()) {
      r.detail = "redirect loop at " + repair_utf8(next.base() + next_path);
      return r;
    }
    seen.push_back(next.base() + next_path);
    if (same_origin(next, server)) {
      config.extra_headers = client.extra_headers;
    } else {
      config.extra_headers.clear();
      if (!client.extra_headers.empty()) {
        withheld = true;
        say_headers_withheld(server, next);
      }
    }
    if (next.https && !config.tls) {
      try {
        config.tls = TlsContext::client(TlsOptions{});
      } catch (const Error& e) {
        r.detail = std::string("cannot follow the redirect to https: ") + e.what();
        return r;
      }
    }
    if (r.status != 307 && r.status != 308) {
      current_method = "GET";
      body.clear();
    }
    at = next;
    current_path = next_path;
  }
}

}  // namespace cuprobe
