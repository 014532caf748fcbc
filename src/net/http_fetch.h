// One small blocking HTTP exchange with a deadline (readiness probes, profiler
// start/stop): connect, send, read the whole response. Never throws for
// network trouble; the result says what happened.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "net/http_client_config.h"
#include "net/http_url.h"

namespace cuprobe {

struct HttpFetchResult {
  bool responded = false;  // a complete HTTP response arrived
  int status = 0;
  std::string body;               // capped at kMaxFetchBody
  std::uint64_t body_bytes = 0;   // the whole body's size: more than body.size() when it was cut
  std::string error;              // reason key when !responded: "connect_refused", "timeout", "malformed_http", ...
  std::string detail;             // one line for people
  std::string location;           // the Location header of the (last) response
  int redirects = 0;              // redirects followed
  std::string url;                // where the answer came from, when a redirect was followed
  bool headers_withheld = false;  // a redirect led elsewhere and the extra headers were not sent there
};

constexpr int kMaxRedirects = 5;
constexpr std::size_t kMaxFetchBody = 1 << 20;

// Sends client.extra_headers with the request. Goes through the proxy that
// client.proxies names for each URL (CONNECT for https; the user's headers are
// never sent to the proxy on CONNECT); a proxy that refuses the tunnel ends in
// "proxy_failed" with a line naming it. Follows redirects (301, 302,
// 303, 307, 308 with a Location; at most kMaxRedirects): 307/308 repeat the
// method and body, the others become a GET without a body, as browsers and
// Python's requests do. The extra headers (-H, Authorization) belong to the
// origin of `server` (scheme, host, port): a hop to another origin goes without
// them (the first time in the process, a line on stderr says so); a hop back
// carries them again. A redirect that cannot be followed (loop, too many, bad
// Location) is returned as the redirect response, with `detail` saying why.
HttpFetchResult http_fetch(const HttpUrl& server, const HttpClientConfig& client, const char* method,
                           const std::string& path, const std::string& json_body, std::chrono::nanoseconds timeout);

}  // namespace cuprobe
