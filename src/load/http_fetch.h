// One small blocking HTTP exchange with a deadline (readiness probes, profiler
// start/stop): connect, send, read the whole response. Never throws for
// network trouble; the result says what happened.
#pragma once

#include <chrono>
#include <string>

#include "load/http_client_config.h"
#include "load/http_url.h"

namespace cuprobe {

struct HttpFetchResult {
  bool responded = false;  // a complete HTTP response arrived
  int status = 0;
  std::string body;    // capped at 1 MiB
  std::string error;   // reason key when !responded: "connect_refused", "timeout", "malformed_http", ...
  std::string detail;  // one line for people
};

// Sends client.extra_headers with the request.
HttpFetchResult http_fetch(const HttpUrl& server, const HttpClientConfig& client, const char* method,
                           const std::string& path, const std::string& json_body, std::chrono::nanoseconds timeout);

}  // namespace cuprobe
