#include "net/no_proxy.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <optional>
#include <string>

namespace cuprobe {
namespace {

struct IpAddress {
  std::array<unsigned char, 16> bytes{};
  int bits = 0;  // 32 (IPv4) or 128 (IPv6)
};

std::optional<IpAddress> parse_ip(const std::string& text) {
  IpAddress ip;
  if (inet_pton(AF_INET, text.c_str(), ip.bytes.data()) == 1) {
    ip.bits = 32;
    return ip;
  }
  if (inet_pton(AF_INET6, text.c_str(), ip.bytes.data()) == 1) {
    ip.bits = 128;
    return ip;
  }
  return std::nullopt;
}

// The first `prefix` bits of a and b are equal.
bool same_prefix(const IpAddress& a, const IpAddress& b, int prefix) {
  for (int i = 0; prefix > 0; ++i, prefix -= 8) {
    int mask = prefix >= 8 ? 0xff : (0xff << (8 - prefix)) & 0xff;
    if ((a.bytes[i] & mask) != (b.bytes[i] & mask)) return false;
  }
  return true;
}

std::string normalized(std::string_view name) {
  std::string out(name);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  while (!out.empty() && out.back() == '.') out.pop_back();
  return out;
}

struct Entry {
  std::string host;  // lower-case, no brackets, no trailing dot, no leading dot
  int prefix = -1;   // "/BITS" of an IP range; -1: none
  int port = -1;     // -1: any
};

// "host", ".host", "host:port", "[v6]:port", "v6", "ip/bits"; nullopt when malformed.
std::optional<Entry> parse_entry(std::string_view text) {
  Entry e;
  auto number = [](std::string_view digits, int max) -> int {
    int value = -1;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return ec == std::errc() && end == digits.data() + digits.size() && value >= 0 && value <= max ? value : -2;
  };
  if (text.starts_with("[")) {
    std::size_t close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view after = text.substr(close + 1);
    text = text.substr(1, close - 1);
    if (after.starts_with(":")) {
      e.port = number(after.substr(1), 65535);
    } else if (!after.empty()) {
      return std::nullopt;
    }
  } else if (std::size_t colon = text.rfind(':'); colon != std::string_view::npos && text.find(':') == colon) {
    e.port = number(text.substr(colon + 1), 65535);  // one colon: a port (more: an IPv6 literal)
    text = text.substr(0, colon);
  }
  if (e.port == -2) return std::nullopt;
  if (std::size_t slash = text.find('/'); slash != std::string_view::npos) {
    e.prefix = number(text.substr(slash + 1), 128);
    if (e.prefix < 0) return std::nullopt;
    text = text.substr(0, slash);
  }
  while (text.starts_with(".")) text.remove_prefix(1);
  e.host = normalized(text);
  if (e.host.empty()) return std::nullopt;
  return e;
}

bool entry_matches(const Entry& e, const std::string& host, const std::optional<IpAddress>& host_ip,
                   std::uint16_t port) {
  if (e.port >= 0 && e.port != port) return false;
  std::optional<IpAddress> ip = parse_ip(e.host);
  if (ip) {
    if (!host_ip || host_ip->bits != ip->bits) return false;
    int prefix = e.prefix < 0 ? ip->bits : std::min(e.prefix, ip->bits);
    return same_prefix(*ip, *host_ip, prefix);
  }
  if (e.prefix >= 0 || host_ip) return false;
  return host == e.host ||
         (host.size() > e.host.size() && host.ends_with(e.host) && host[host.size() - e.host.size() - 1] == '.');
}

}  // namespace

bool no_proxy_matches(std::string_view list, std::string_view host, std::uint16_t port) {
  std::string name = normalized(host);
  if (name.starts_with("[") && name.ends_with("]")) name = name.substr(1, name.size() - 2);
  std::optional<IpAddress> host_ip = parse_ip(name);
  while (!list.empty()) {
    std::size_t end = list.find_first_of(", \t");
    std::string_view item = list.substr(0, end);
    list.remove_prefix(end == std::string_view::npos ? list.size() : end + 1);
    if (item.empty()) continue;
    if (item == "*") return true;
    std::optional<Entry> e = parse_entry(item);
    if (e && entry_matches(*e, name, host_ip, port)) return true;
  }
  return false;
}

}  // namespace cuprobe
