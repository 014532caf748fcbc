// Which proxy a request goes through, from the environment as curl reads it:
// http:// targets use http_proxy (then HTTP_PROXY, except in a CGI program
// where that name can be set by a request header: REQUEST_METHOD is set),
// https:// targets use https_proxy or HTTPS_PROXY, both fall back to
// all_proxy/ALL_PROXY; lower case wins; an empty value is unset; NO_PROXY
// (no_proxy first) lists the hosts reached directly (net/no_proxy.h).
// A proxy URL is [http://][USER[:PASSWORD]@]HOST[:PORT] (port 1080 when none,
// as curl); its credentials become a Proxy-Authorization: Basic header.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "net/http_url.h"

namespace cuprobe {

struct ProxyServer {
  HttpUrl url;                                        // the proxy's host and port (http)
  std::string authorization;                          // "Basic BASE64(user:password)", "" without credentials
  std::string variable;                               // the environment variable it came from, e.g. "https_proxy"
  std::string display() const { return url.base(); }  // never the credentials
  // "Proxy-Authorization: ...\r\n", or "" without credentials.
  std::string header_lines() const;
};

struct ProxySettings {
  std::optional<ProxyServer> http, https;
  std::string no_proxy;  // the NO_PROXY list as given
  // The proxy for a request to `target`; nullptr when it connects directly.
  const ProxyServer* route(const HttpUrl& target) const;
};

// Reads the variables through `lookup` (getenv's contract: nullptr when unset).
// Throws cuprobe::Error (exit code 2) naming the variable when a proxy URL
// cannot be used (another scheme such as socks5:// or https://, a bad port).
ProxySettings proxy_settings_from(const std::function<const char*(const char*)>& lookup);
ProxySettings proxy_settings_from_environment();

// Once per process and proxy, on stderr: which proxy carries requests to `target`.
void note_proxy_use(const ProxyServer& proxy, const HttpUrl& target);

}  // namespace cuprobe
