// A small HTTP server for misbehaving-server tests: every request (read whole,
// Content-Length bodies) goes to a handler that returns the raw response bytes,
// which are sent as they are before the connection closes. An empty answer
// holds the connection open and silent until the server stops. Connections are
// served one at a time, on 127.0.0.1; over TLS when given a server context.
// With keep_alive, an answer with a Content-Length and no "Connection: close"
// leaves the connection open for the client's next request.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "net/tls_session.h"

namespace cuprobe::test {

struct ScriptedRequest {
  std::string method, path;
  std::string head;  // request line and headers, as received
  std::string body;
  // Value of header `name` (case-insensitive), "" when absent.
  std::string header(const std::string& name) const;
};

using ScriptedHandler = std::function<std::string(const ScriptedRequest&)>;

// "HTTP/1.1 CODE REASON" with Content-Type, Content-Length and Connection: close.
std::string http_response(int code, const std::string& body, const std::string& content_type = "application/json");
// A 200 text/event-stream response (no length: the body ends when the connection closes),
// each item one "data: ..." event.
std::string sse_response(const std::vector<std::string>& events);

// Writes DIR/cert.pem and DIR/key.pem, a self-signed certificate for the given
// subjectAltName (e.g. "IP:127.0.0.1,DNS:localhost"), with the openssl command.
// False when openssl cannot be run.
bool make_self_signed_certificate(const std::string& dir, const std::string& subject_alt_name);

class ScriptedServer {
 public:
  explicit ScriptedServer(ScriptedHandler handler, std::shared_ptr<const TlsContext> tls = nullptr,
                          bool keep_alive = false);
  ~ScriptedServer();
  ScriptedServer(const ScriptedServer&) = delete;
  ScriptedServer& operator=(const ScriptedServer&) = delete;

  std::uint16_t port() const;
  std::string url() const;  // "http://127.0.0.1:PORT" ("https://..." with TLS)
  std::vector<ScriptedRequest> requests() const;
  std::uint64_t connections() const;  // accepted so far

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuprobe::test
