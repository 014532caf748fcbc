// bench and wait through a real proxy (tinyproxy): plain http in absolute form,
// https through CONNECT, NO_PROXY, the proxy's refusals on one line, and the
// user's headers kept from the proxy. Keep-alive as bench reports it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "net/tls_session.h"
#include "support/run_cuprobe.h"
#include "support/scripted_server.h"
#include "support/stream_server.h"
#include "support/tinyproxy.h"

namespace cuprobe::test {
namespace {

using nlohmann::json;

// Every proxy variable cleared, then `values` set.
std::map<std::string, std::string> proxy_env(std::map<std::string, std::string> values) {
  for (const char* name :
       {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"}) {
    values.try_emplace(name, "");
  }
  return values;
}

StreamServerOptions quick() {
  StreamServerOptions o;
  o.ttft_us = 500;
  o.itl_us = 200;
  o.keep_alive = true;
  return o;
}

TEST(BenchProxy, PlainHttpGoesThroughTheProxyInAbsoluteForm) {
  std::string why;
  if (!Tinyproxy::binary(why)) GTEST_SKIP() << why;
  StreamServer s(quick());
  Tinyproxy proxy;
  ScopedEnvironment env(proxy_env({{"http_proxy", proxy.url()}}));
  auto r = run_cuprobe({"bench", s.url(), "-n", "6", "-c", "2", "--output-len", "2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(s.served().size(), 7u);  // and the probe of the request fields
  std::string log = proxy.log();
  EXPECT_NE(log.find("GET " + s.url() + "/health HTTP/1.1"), std::string::npos) << log;
  EXPECT_NE(log.find("POST " + s.url() + "/v1/completions HTTP/1.1"), std::string::npos) << log;
  EXPECT_NE(r.err.find("go through the proxy " + proxy.url() + " (from http_proxy"), std::string::npos) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["settings"]["proxy"], proxy.url());
  // Not kept alive through a plain-http proxy (tinyproxy would pipe the next request as is).
  EXPECT_EQ(j["run"]["connections"]["keep_alive"], false);
  EXPECT_EQ(j["run"]["connections"]["opened"], 6);

  auto w = run_cuprobe({"wait", s.url(), "--timeout", "10s"});
  EXPECT_EQ(w.exit_code, 0) << w.err;
  EXPECT_GT(proxy.log().size(), log.size());
}

TEST(BenchProxy, NoProxyBypassesIt) {
  std::string why;
  if (!Tinyproxy::binary(why)) GTEST_SKIP() << why;
  StreamServer s(quick());
  Tinyproxy proxy;
  ScopedEnvironment env(proxy_env({{"HTTP_PROXY", proxy.url()}, {"NO_PROXY", "example.com, 127.0.0.1"}}));
  auto r = run_cuprobe({"bench", s.url(), "-n", "4", "--output-len", "2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(proxy.log().find("Request ("), std::string::npos) << proxy.log();
  EXPECT_EQ(r.err.find("through the proxy"), std::string::npos) << r.err;
  EXPECT_TRUE(json::parse(r.out)["settings"]["proxy"].is_null());
}

TEST(BenchProxy, ProxyCredentialsAndItsRefusal) {
  std::string why;
  if (!Tinyproxy::binary(why)) GTEST_SKIP() << why;
  StreamServer s(quick());
  Tinyproxy proxy(TinyproxyOptions{{}, "bench", "s3cret"});
  {
    ScopedEnvironment env(proxy_env({{"http_proxy", proxy.url()}}));
    auto r = run_cuprobe({"wait", s.url(), "--timeout", "1s", "-q"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("HTTP 407 (the proxy " + proxy.url() + " asks for credentials"), std::string::npos) << r.err;
  }
  std::string with_credentials = "http://bench:s3cret@127.0.0.1:" + std::to_string(proxy.port());
  ScopedEnvironment env(proxy_env({{"http_proxy", with_credentials}}));
  auto r = run_cuprobe({"bench", s.url(), "-n", "3", "--output-len", "2", "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(s.served().size(), 4u);  // and the probe of the request fields
  EXPECT_EQ(r.err.find("s3cret"), std::string::npos) << r.err;
}

class BenchProxyTls : public testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!tls_available(why)) GTEST_SKIP() << why;
    if (!Tinyproxy::binary(why)) GTEST_SKIP() << why;
    dir_ = temp_dir();
    if (!make_self_signed_certificate(dir_, "IP:127.0.0.1")) GTEST_SKIP() << "no openssl command";
    std::string body = "data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
    origin_ = std::make_unique<ScriptedServer>(
        [body](const ScriptedRequest& req) {
          if (req.path == "/health") return http_response(200, "", "text/plain");
          if (req.path == "/v1/models") return http_response(200, "{\"data\":[{\"id\":\"m\"}]}");
          return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: " +
                 std::to_string(body.size()) + "\r\n\r\n" + body;
        },
        TlsContext::server(dir_ + "/cert.pem", dir_ + "/key.pem"), true);
  }
  std::string dir_;
  std::unique_ptr<ScriptedServer> origin_;
};

TEST_F(BenchProxyTls, HttpsGoesThroughConnectAndKeepsItsTunnel) {
  Tinyproxy proxy;
  ScopedEnvironment env(proxy_env({{"https_proxy", proxy.url()}}));
  auto r = run_cuprobe({"bench", origin_->url(), "--cacert", dir_ + "/cert.pem", "-H", "X-Secret: origin-only", "-n",
                        "8", "-c", "1", "--output-len", "1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string connect = "CONNECT 127.0.0.1:" + std::to_string(origin_->port()) + " HTTP/1.1";
  EXPECT_NE(proxy.log().find(connect), std::string::npos) << proxy.log();
  for (const auto& req : origin_->requests()) EXPECT_EQ(req.header("X-Secret"), "origin-only") << req.path;
  json j = json::parse(r.out);
  EXPECT_EQ(j["run"]["connections"]["opened"], 1);  // one tunnel, kept alive through the proxy
  EXPECT_EQ(j["run"]["connections"]["requests_on_reused"], 7);
}

TEST_F(BenchProxyTls, RefusedConnectIsOneLineNamingTheProxy) {
  Tinyproxy proxy(TinyproxyOptions{{1}, "", ""});  // CONNECT to port 1 only
  ScopedEnvironment env(proxy_env({{"HTTPS_PROXY", proxy.url()}}));
  auto r = run_cuprobe({"bench", origin_->url(), "--cacert", dir_ + "/cert.pem", "--no-wait", "-n", "2", "-q"});
  EXPECT_EQ(r.exit_code, 1);
  std::string line =
      "the proxy " + proxy.url() + " answered CONNECT 127.0.0.1:" + std::to_string(origin_->port()) + " with HTTP 403";
  EXPECT_NE(r.err.find(line), std::string::npos) << r.err;
  auto w = run_cuprobe({"wait", origin_->url(), "--cacert", dir_ + "/cert.pem", "--timeout", "1s", "-q"});
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_NE(w.err.find(line), std::string::npos) << w.err;
}

// The proxy sees CONNECT with its own credentials, never the origin's headers.
TEST_F(BenchProxyTls, ConnectCarriesNoOriginHeaders) {
  ScriptedServer fake_proxy([](const ScriptedRequest&) { return http_response(403, ""); });
  std::string proxy_url = "http://u:p@127.0.0.1:" + std::to_string(fake_proxy.port());
  ScopedEnvironment env(proxy_env({{"https_proxy", proxy_url}}));
  auto r = run_cuprobe({"wait", origin_->url(), "--cacert", dir_ + "/cert.pem", "-H", "X-Secret: s", "--api-key", "KEY",
                        "--timeout", "300ms", "-q"});
  EXPECT_EQ(r.exit_code, 1);
  std::vector<ScriptedRequest> seen = fake_proxy.requests();
  ASSERT_FALSE(seen.empty());
  const ScriptedRequest& req = seen.front();
  EXPECT_EQ(req.method, "CONNECT");
  EXPECT_EQ(req.header("Proxy-Authorization"), "Basic dTpw");
  EXPECT_EQ(req.header("X-Secret"), "");
  EXPECT_EQ(req.header("Authorization"), "");
}

TEST(BenchKeepAlive, ReportsConnectionsOpened) {
  StreamServer s(quick());
  ScopedEnvironment env(proxy_env({}));
  auto r = run_cuprobe({"bench", s.url(), "-n", "40", "-c", "4", "--output-len", "3", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["settings"]["keep_alive"], true);
  EXPECT_EQ(j["run"]["connections"]["opened"], 4);
  EXPECT_EQ(j["run"]["connections"]["requests_on_reused"], 36);
  auto cold = run_cuprobe({"bench", s.url(), "-n", "40", "-c", "4", "--output-len", "3", "--no-keep-alive"});
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  EXPECT_NE(cold.out.find("connections: 40 opened, one per request (--no-keep-alive)"), std::string::npos) << cold.out;
}

// Issue 39: a server that reads a request and drops its kept-alive connection may have processed it: the
// request fails (counted), it is never sent again; 40 requests are 40 POSTs at the server (and the probe).
TEST(BenchKeepAlive, ARequestTheServerReadIsNotSentTwice) {
  StreamServerOptions o = quick();
  o.close_reused_every = 4;
  StreamServer s(o);
  ScopedEnvironment env(proxy_env({}));
  auto r = run_cuprobe({"bench", s.url(), "-n", "40", "-c", "4", "--output-len", "3", "--json"});
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 4) << r.exit_code << ": " << r.err;
  json j = json::parse(r.out);
  EXPECT_GT(s.reused_requests_dropped(), 0u);
  EXPECT_EQ(j["requests"]["failed"], s.reused_requests_dropped());
  EXPECT_EQ(j["run"]["connections"]["retried_on_new"], 0);
  EXPECT_EQ(s.served().size() + s.reused_requests_dropped(), 41u);  // the 40 and bench's one field probe
}

}  // namespace
}  // namespace cuprobe::test
