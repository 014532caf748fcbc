#include "net/proxy_settings.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/error.h"

namespace cuprobe {
namespace {

ProxySettings from(const std::map<std::string, std::string>& env) {
  return proxy_settings_from([&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(ProxySettings, SchemeDecidesTheVariableAndLowerCaseWins) {
  ProxySettings p = from({{"http_proxy", "http://lower:1"},
                          {"HTTP_PROXY", "http://upper:2"},
                          {"HTTPS_PROXY", "secure:3"},
                          {"ALL_PROXY", "all:4"}});
  ASSERT_TRUE(p.http && p.https);
  EXPECT_EQ(p.http->url.host, "lower");
  EXPECT_EQ(p.http->variable, "http_proxy");
  EXPECT_EQ(p.https->display(), "http://secure:3");
  EXPECT_EQ(p.https->variable, "HTTPS_PROXY");
  EXPECT_EQ(p.route(parse_http_url("http://server:8000"))->url.port, 1);
  EXPECT_EQ(p.route(parse_http_url("https://server"))->url.port, 3);
  ProxySettings all = from({{"ALL_PROXY", "all:4"}, {"HTTP_PROXY", ""}});
  ASSERT_TRUE(all.http && all.https);
  EXPECT_EQ(all.http->url.host, "all");
  EXPECT_EQ(all.http->variable, "ALL_PROXY");
  EXPECT_FALSE(from({}).route(parse_http_url("http://x")));
}

TEST(ProxySettings, UpperCaseHttpProxyIsIgnoredInACgiProgram) {
  // A CGI server sets HTTP_PROXY from a request's "Proxy:" header (httpoxy).
  EXPECT_FALSE(from({{"HTTP_PROXY", "evil:1"}, {"REQUEST_METHOD", "GET"}}).http);
  EXPECT_TRUE(from({{"http_proxy", "fine:1"}, {"REQUEST_METHOD", "GET"}}).http);
  EXPECT_TRUE(from({{"HTTP_PROXY", "fine:1"}}).http);
}

TEST(ProxySettings, CredentialsBecomeBasicAuthorizationAndStayOffTheDisplay) {
  ProxySettings p = from({{"https_proxy", "http://user%40corp:p%3Ass@proxy.example:3128/"}});
  ASSERT_TRUE(p.https);
  EXPECT_EQ(p.https->authorization, "Basic dXNlckBjb3JwOnA6c3M=");  // user@corp:p:ss
  EXPECT_EQ(p.https->header_lines(), "Proxy-Authorization: Basic dXNlckBjb3JwOnA6c3M=\r\n");
  EXPECT_EQ(p.https->display(), "http://proxy.example:3128");
  EXPECT_EQ(from({{"http_proxy", "proxy:8"}}).http->header_lines(), "");
  EXPECT_EQ(from({{"http_proxy", "proxy"}}).http->url.port, 1080);  // curl's default
  EXPECT_EQ(from({{"http_proxy", "[::1]:3128"}}).http->url.host, "::1");
}

TEST(ProxySettings, NoProxyBypasses) {
  ProxySettings p = from({{"http_proxy", "proxy:1"}, {"https_proxy", "proxy:1"}, {"NO_PROXY", "localhost,10.0.0.0/8"}});
  EXPECT_FALSE(p.route(parse_http_url("http://localhost:8000")));
  EXPECT_FALSE(p.route(parse_http_url("https://10.1.2.3")));
  EXPECT_TRUE(p.route(parse_http_url("http://gpu-node:8000")));
  ProxySettings lower = from({{"http_proxy", "proxy:1"}, {"no_proxy", "a.org"}, {"NO_PROXY", "*"}});
  EXPECT_FALSE(lower.route(parse_http_url("http://a.org")));
  EXPECT_TRUE(lower.route(parse_http_url("http://b.org")));
}

TEST(ProxySettings, UnusableProxyUrlsNameTheVariable) {
  for (const char* bad : {"socks5://proxy:1080", "https://proxy:443", "http://proxy:99999", "http://:8"}) {
    try {
      from({{"https_proxy", bad}});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), kExitUsage);
      EXPECT_TRUE(std::string(e.what()).starts_with("https_proxy: ")) << e.what();
    }
  }
  try {
    from({{"http_proxy", "http://user:secret@proxy:bad"}});
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuprobe
