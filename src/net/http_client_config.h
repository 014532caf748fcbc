// What every request of one run carries besides its own path and body: the
// extra headers (keys, gateway headers) and, for https, the TLS settings.
// Readiness probes, /v1/models, profiler calls and the load all use the same.
#pragma once

#include <memory>
#include <string>

#include "net/tls_session.h"

namespace cuprobe {

struct HttpClientConfig {
  std::string extra_headers;              // "Name: value\r\n" lines, see header_line()
  std::shared_ptr<const TlsContext> tls;  // set for https URLs
};

}  // namespace cuprobe
