#include "net/proxy_tunnel.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

ProxyServer proxy_at(const std::string& authorization = "") {
  ProxyServer p;
  p.url = parse_http_url("http://127.0.0.1:3128");
  p.authorization = authorization;
  p.variable = "https_proxy";
  return p;
}

TEST(ProxyTunnel, ConnectCarriesOnlyHostAndTheProxysCredentials) {
  HttpUrl origin = parse_http_url("https://gpu-node:8443");
  EXPECT_EQ(connect_request(origin, proxy_at()),
            "CONNECT gpu-node:8443 HTTP/1.1\r\nHost: gpu-node:8443\r\nUser-Agent: cuprobe\r\n\r\n");
  EXPECT_EQ(connect_request(parse_http_url("https://[::1]"), proxy_at("Basic eDp5")),
            "CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\nUser-Agent: cuprobe\r\n"
            "Proxy-Authorization: Basic eDp5\r\n\r\n");
}

TEST(ProxyTunnel, EstablishedAcrossSplitReads) {
  ConnectReply reply(parse_http_url("https://h:443"), proxy_at());
  std::string answer = "HTTP/1.1 200 Connection established\r\nProxy-agent: tinyproxy\r\n\r\nTLS";
  for (char c : answer.substr(0, answer.size() - 4))
    EXPECT_EQ(reply.feed(std::string(1, c)), ConnectReply::State::kReading);
  EXPECT_EQ(reply.feed(answer.substr(answer.size() - 4)), ConnectReply::State::kEstablished);
  EXPECT_EQ(reply.status(), 200);
  EXPECT_EQ(reply.take_rest(), "TLS");
}

TEST(ProxyTunnel, RefusalIsOneLineNamingTheProxy) {
  ConnectReply denied(parse_http_url("https://h:443"), proxy_at());
  EXPECT_EQ(denied.feed("HTTP/1.0 403 Filtered\r\nContent-Length: 0\r\n\r\n"), ConnectReply::State::kFailed);
  EXPECT_EQ(denied.error(), "the proxy http://127.0.0.1:3128 answered CONNECT h:443 with HTTP 403 Filtered");
  ConnectReply auth(parse_http_url("https://h:443"), proxy_at());
  auth.feed("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n");
  EXPECT_NE(auth.error().find("407 Proxy Authentication Required (give credentials"), std::string::npos)
      << auth.error();
  ConnectReply garbage(parse_http_url("https://h:443"), proxy_at());
  EXPECT_EQ(garbage.feed("SSH-2.0-OpenSSH\r\n\r\n"), ConnectReply::State::kFailed);
  EXPECT_NE(garbage.error().find("with 'SSH-2.0-OpenSSH'"), std::string::npos) << garbage.error();
  ConnectReply endless(parse_http_url("https://h:443"), proxy_at());
  EXPECT_EQ(endless.feed(std::string(ConnectReply::kMaxBytes + 10, 'x')), ConnectReply::State::kFailed);
}

// Issue 39: the status is three digits and then the end or a space: "2000 OK" or "20x" is no 200.
TEST(ProxyTunnel, StatusLineIsParsedStrictly) {
  for (const char* bad : {"HTTP/1.1 2000 OK", "HTTP/1.1 20x OK", "HTTP/1.1 +20 OK", "HTTP/1.1 200OK"}) {
    ConnectReply reply(parse_http_url("https://h:443"), proxy_at());
    EXPECT_EQ(reply.feed(std::string(bad) + "\r\n\r\n"), ConnectReply::State::kFailed) << bad;
  }
  ConnectReply bare(parse_http_url("https://h:443"), proxy_at());
  EXPECT_EQ(bare.feed("HTTP/1.1 200\r\n\r\n"), ConnectReply::State::kEstablished);
}

}  // namespace
}  // namespace cuprobe
