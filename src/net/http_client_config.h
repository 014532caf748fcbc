// What every request of one run carries besides its own path and body: the
// extra headers (keys, gateway headers), for https the TLS settings, and the
// proxies from the environment. Readiness probes, /v1/models, profiler calls,
// /metrics, /tokenize and the load all use the same.
#pragma once

#include <memory>
#include <string>

#include "net/proxy_settings.h"
#include "net/tls_session.h"

namespace cuprobe {

struct HttpClientConfig {
  std::string extra_headers;              // "Name: value\r\n" lines, see header_line()
  std::shared_ptr<const TlsContext> tls;  // set for https URLs
  ProxySettings proxies;                  // none unless read from the environment (proxy_settings_from_environment)
};

}  // namespace cuprobe
