// http://HOST[:PORT][/PATH] as given on the command line. Only plain http is
// supported: cuprobe bench talks to a local or cluster-internal inference server.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe {

struct HttpUrl {
  std::string host;          // as given (name or IPv4/IPv6 literal without brackets)
  std::uint16_t port = 80;
  std::string path;          // "" when the URL names only the server, else starts with '/'
  std::string authority() const;  // "host:port" for the Host header (IPv6 in brackets)
  std::string base() const;       // "http://host:port"
};

// Throws cuprobe::Error (exit code 2) with the reason: https, missing host, bad port...
HttpUrl parse_http_url(std::string_view text);

}  // namespace cuprobe
