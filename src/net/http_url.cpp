#include "net/http_url.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/error.h"

namespace cuprobe {
namespace {

// The URL as a message may show it: user info (a password) replaced by "***".
std::string shown_url(std::string_view text) {
  std::size_t start = text.find("://");
  start = start == std::string_view::npos ? 0 : start + 3;
  std::size_t end = std::min(text.find('/', start), text.size());
  std::size_t at = text.substr(start, end - start).rfind('@');
  if (at == std::string_view::npos) return std::string(text);
  return std::string(text.substr(0, start)) + "***" + std::string(text.substr(start + at));
}

[[noreturn]] void bad_url(std::string_view text, const std::string& why) {
  throw Error("invalid URL '" + shown_url(text) + "': " + why, kExitUsage);
}

}  // namespace

std::string HttpUrl::authority() const {
  bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string HttpUrl::base() const { return (https ? "https://" : "http://") + authority(); }

HttpUrl parse_http_url(std::string_view text) {
  std::string_view rest = text;
  HttpUrl url;
  if (rest.starts_with("https://")) {
    rest.remove_prefix(8);
    url.https = true;
    url.port = 443;
  } else if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else if (rest.find("://") != std::string_view::npos) {
    bad_url(text, "only http:// and https:// URLs are supported");
  }
  std::size_t slash = rest.find('/');
  std::string_view hostport = rest.substr(0, slash);
  if (slash != std::string_view::npos) url.path = std::string(rest.substr(slash));
  if (url.path == "/") url.path.clear();
  if (url.path.find_first_of("?# \t\r\n") != std::string::npos) {
    bad_url(text, "query strings, fragments and spaces are not supported in the path");
  }
  if (hostport.find('@') != std::string_view::npos) bad_url(text, "user info is not supported");
  std::string_view port_text;
  if (hostport.starts_with("[")) {
    std::size_t close = hostport.find(']');
    if (close == std::string_view::npos) bad_url(text, "unterminated IPv6 literal");
    url.host = std::string(hostport.substr(1, close - 1));
    std::string_view after = hostport.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') bad_url(text, "expected ':' after the IPv6 literal");
      port_text = after.substr(1);
      if (port_text.empty()) bad_url(text, "empty port");
    }
  } else {
    std::size_t colon = hostport.find(':');
    url.host = std::string(hostport.substr(0, colon));
    if (colon != std::string_view::npos) {
      port_text = hostport.substr(colon + 1);
      if (port_text.empty()) bad_url(text, "empty port");
    }
  }
  if (url.host.empty()) bad_url(text, "missing host");
  if (url.host.find_first_of(" \t\r\n/") != std::string::npos) bad_url(text, "invalid host");
  if (!port_text.empty()) {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || value == 0 || value > 65535) {
      bad_url(text, "invalid port '" + std::string(port_text) + "'");
    }
    url.port = static_cast<std::uint16_t>(value);
  }
  return url;
}

std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace cuprobe
