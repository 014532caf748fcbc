// A small HTTP/1.1 server over POSIX sockets for the exporter's endpoint
// (Prometheus scrapes, health checks), safe among hostile neighbours: one
// thread runs a poll() loop over every connection, so a slow or silent client
// never delays another. Each connection must send its whole request head
// within a fixed deadline from its accept (a slow client cannot stretch it by
// trickling bytes) and within a bounded size; the response must be taken within
// another. At the cap on open connections, the oldest one still waiting for
// its request is closed first. One request per connection (Connection: close);
// GET and HEAD only. Not a general web server.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "net/http_request_parser.h"

namespace cuprobe {

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

struct HttpServerLimits {
  std::size_t max_connections = 256;              // open at once; the oldest waiting for its request goes first
  std::chrono::milliseconds head_timeout{2000};   // the whole request head, counted from the accept
  std::chrono::milliseconds write_timeout{5000};  // the whole response, counted from its first byte
  std::size_t max_head_bytes = HttpRequestParser::kDefaultMaxHead;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

class HttpServer {
 public:
  // Binds and listens; port 0 picks a free one. Throws cuprobe::Error (exit 1) with the reason.
  explicit HttpServer(const ListenAddress& address, HttpServerLimits limits = {});
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const { return port_; }
  // Answers requests until *stop is non-zero (checked at least every 100 ms).
  void serve(const HttpHandler& handler, const volatile int* stop);

 private:
  int fd_ = -1;
  std::uint16_t port_ = 0;
  HttpServerLimits limits_;
};

}  // namespace cuprobe
