// http[s]://HOST[:PORT][/PATH] as given on the command line (port 80 or 443 by
// default); a URL without a scheme is http.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe {

struct HttpUrl {
  std::string host;  // as given (name or IPv4/IPv6 literal without brackets)
  bool https = false;
  std::uint16_t port = 80;
  std::string path;               // "" when the URL names only the server, else starts with '/'
  std::string authority() const;  // "host:port" for the Host header (IPv6 in brackets)
  std::string base() const;       // "http://host:port" or "https://host:port"
};

// Throws cuprobe::Error (exit code 2) with the reason: another scheme, missing host, bad port...
HttpUrl parse_http_url(std::string_view text);

// %XX escapes undone (a malformed escape stays as written): URL user info, grpc-message.
std::string percent_decode(std::string_view text);

}  // namespace cuprobe
