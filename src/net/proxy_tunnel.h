// An https request through a proxy: "CONNECT host:port" to the proxy, its
// answer read up to the end of its headers, then TLS to the origin inside the
// tunnel. The CONNECT carries Host and the proxy's own credentials only: the
// user's -H headers and Authorization belong to the origin and travel inside
// the encrypted tunnel, never to the proxy.
#pragma once

#include <string>
#include <string_view>

#include "net/http_url.h"
#include "net/proxy_settings.h"

namespace cuprobe {

std::string connect_request(const HttpUrl& origin, const ProxyServer& proxy);

// The proxy's answer to CONNECT, fed as it arrives.
class ConnectReply {
 public:
  enum class State { kReading, kEstablished, kFailed };
  static constexpr std::size_t kMaxBytes = 16 * 1024;

  ConnectReply(const HttpUrl& origin, const ProxyServer& proxy);
  // Kept: bytes after the answer's headers (the origin's, once the tunnel stands).
  State feed(std::string_view data);
  State state() const { return state_; }
  int status() const { return status_; }
  // One line naming the proxy, e.g. "the proxy http://p:3128 answered CONNECT
  // h:443 with HTTP 407 Proxy Authentication Required"; "" unless failed.
  const std::string& error() const { return error_; }
  // Bytes that followed the answer (normally none).
  std::string take_rest() { return std::move(rest_); }

 private:
  State fail(std::string why);
  std::string target_, proxy_;
  std::string buffer_, rest_, error_;
  State state_ = State::kReading;
  int status_ = 0;
};

}  // namespace cuprobe
