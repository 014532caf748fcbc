#include "net/proxy_settings.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>

#include "common/error.h"
#include "common/utf8.h"
#include "net/http_url.h"
#include "net/no_proxy.h"

namespace cuprobe {
namespace {

constexpr std::uint16_t kDefaultProxyPort = 1080;  // curl's

std::string base64(std::string_view in) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < in.size(); i += 3) {
    std::uint32_t n = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) n |= static_cast<unsigned char>(in[i + 1]) << 8;
    if (i + 2 < in.size()) n |= static_cast<unsigned char>(in[i + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < in.size() ? kAlphabet[n & 63] : '=';
  }
  return out;
}

ProxyServer parse_proxy(const std::string& variable, std::string_view value) {
  ProxyServer proxy;
  proxy.variable = variable;
  std::string_view rest = value;
  if (std::size_t scheme = rest.find("://"); scheme != std::string_view::npos) {
    std::string name(rest.substr(0, scheme));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name != "http") {
      throw Error(variable + ": " + name + ":// proxies are not supported (use an http:// proxy)", kExitUsage);
    }
    rest.remove_prefix(scheme + 3);
  }
  std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    std::string_view userinfo = authority.substr(0, at);
    std::size_t colon = userinfo.find(':');
    std::string user = percent_decode(userinfo.substr(0, colon));
    std::string password = colon == std::string_view::npos ? "" : percent_decode(userinfo.substr(colon + 1));
    proxy.authorization = "Basic " + base64(user + ":" + password);
    authority.remove_prefix(at + 1);
  }
  bool has_port = authority.starts_with("[") ? authority.find("]:") != std::string_view::npos
                                             : authority.find(':') != std::string_view::npos;
  try {
    proxy.url = parse_http_url("http://" + std::string(authority));
  } catch (const Error& e) {  // the message names the host and port only: no password on stderr
    throw Error(variable + ": " + e.what(), kExitUsage);
  }
  if (!has_port) proxy.url.port = kDefaultProxyPort;
  return proxy;
}

}  // namespace

std::string ProxyServer::header_lines() const {
  return authorization.empty() ? "" : "Proxy-Authorization: " + authorization + "\r\n";
}

const ProxyServer* ProxySettings::route(const HttpUrl& target) const {
  const std::optional<ProxyServer>& proxy = target.https ? https : http;
  if (!proxy || no_proxy_matches(no_proxy, target.host, target.port)) return nullptr;
  return &*proxy;
}

ProxySettings proxy_settings_from(const std::function<const char*(const char*)>& lookup) {
  auto first = [&](std::initializer_list<const char*> names) -> std::pair<std::string, std::string> {
    for (const char* name : names) {
      const char* value = lookup(name);
      if (value && *value) return {name, value};
    }
    return {};
  };
  bool cgi = lookup("REQUEST_METHOD") != nullptr;
  auto http = cgi ? first({"http_proxy", "all_proxy", "ALL_PROXY"})
                  : first({"http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"});
  auto https = first({"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"});
  ProxySettings settings;
  if (!http.first.empty()) settings.http = parse_proxy(http.first, http.second);
  if (!https.first.empty()) settings.https = parse_proxy(https.first, https.second);
  settings.no_proxy = first({"no_proxy", "NO_PROXY"}).second;
  return settings;
}

ProxySettings proxy_settings_from_environment() {
  return proxy_settings_from([](const char* name) { return std::getenv(name); });
}

void note_proxy_use(const ProxyServer& proxy, const HttpUrl& target) {
  static std::mutex mu;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mu);
  if (!said.insert(proxy.display()).second) return;
  std::fprintf(stderr,
               "cuprobe: requests to %s go through the proxy %s (from %s; NO_PROXY lists hosts to reach directly)\n",
               repair_utf8(target.base()).c_str(), repair_utf8(proxy.display()).c_str(), proxy.variable.c_str());
}

}  // namespace cuprobe
