// The exporter's HTTP endpoint: a small blocking HTTP/1.1 server over POSIX
// sockets, one request per connection (Connection: close), one connection at a
// time with a read/write deadline so that a stuck client cannot hold it. Enough
// for Prometheus scrapes and health checks; not a general web server.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace cuprobe {

struct HttpRequest {
  std::string method, path;  // path without the query string
  std::string accept;        // the Accept header, "" when absent
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

struct ListenAddress {
  std::string host;  // "127.0.0.1", "0.0.0.0", "::", a name
  std::uint16_t port = 0;
  std::string text() const;  // "127.0.0.1:9400", "[::1]:9400" (IPv6 in brackets)
};

// "ADDR:PORT", "[IPv6]:PORT" or ":PORT" (all interfaces); throws exit 2 otherwise.
ListenAddress parse_listen_address(std::string_view text);

class HttpServer {
 public:
  // Binds and listens; port 0 picks a free one. Throws cuprobe::Error (exit 1) with the reason.
  explicit HttpServer(const ListenAddress& address);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const { return port_; }
  // Answers requests until *stop is non-zero (checked at least every 100 ms).
  void serve(const std::function<HttpResponse(const HttpRequest&)>& handler, const volatile int* stop);

 private:
  void handle_connection(int fd, const std::function<HttpResponse(const HttpRequest&)>& handler);
  int fd_ = -1;
  std::uint16_t port_ = 0;
};

}  // namespace cuprobe
