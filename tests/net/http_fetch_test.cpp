#include "net/http_fetch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>

#include "load/readiness.h"
#include "support/scripted_server.h"

namespace cuprobe {
namespace {

std::string redirect(int code, const std::string& location) {
  return "HTTP/1.1 " + std::to_string(code) + " Moved\r\nLocation: " + location +
         "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
}

TEST(HttpFetch, FollowsRedirectsOnControlCalls) {
  test::ScriptedServer target([](const test::ScriptedRequest& req) {
    return test::http_response(200, "{\"path\":\"" + req.path + "\",\"method\":\"" + req.method + "\",\"auth\":\"" +
                                        req.header("Authorization") + "\"}");
  });
  std::string other = target.url();
  test::ScriptedServer s([&](const test::ScriptedRequest& req) {
    if (req.path == "/health") return redirect(301, "/healthz");
    if (req.path == "/healthz") return test::http_response(200, "ok", "text/plain");
    if (req.path == "/v1/models") return redirect(308, "/api/v1/models");
    if (req.path == "/api/v1/models") return test::http_response(200, "{\"data\":[{\"id\":\"moved\"}]}");
    if (req.path == "/start_profile") return redirect(307, "start2");  // relative
    if (req.path == "/start2") return test::http_response(200, req.method + " " + req.body, "text/plain");
    if (req.path == "/post302") return redirect(302, "/landing");
    if (req.path == "/landing") return test::http_response(200, req.method + " [" + req.body + "]", "text/plain");
    if (req.path == "/away") return redirect(302, other + "/elsewhere");
    if (req.path == "/loop") return redirect(302, "/loop2");
    if (req.path == "/loop2") return redirect(302, "/loop");
    if (req.path.starts_with("/chain")) {
      int n = std::stoi(req.path.substr(6));
      return redirect(302, "/chain" + std::to_string(n + 1));
    }
    return test::http_response(404, "{}");
  });
  HttpUrl url = parse_http_url(s.url());
  HttpClientConfig client;
  client.extra_headers = "Authorization: Bearer k\r\nX-Gw: 1\r\n";
  auto t = std::chrono::seconds(5);

  ReadinessProbe probe = probe_readiness(url, client, t);
  EXPECT_TRUE(probe.ready) << probe.state;
  ASSERT_EQ(probe.models.size(), 1u);
  EXPECT_EQ(probe.models[0], "moved");

  HttpFetchResult r = http_fetch(url, client, "POST", "/start_profile", "{\"a\":1}", t);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "POST {\"a\":1}") << "307 repeats the method and body";
  EXPECT_EQ(r.redirects, 1);
  EXPECT_EQ(r.url, s.url() + "/start2");

  r = http_fetch(url, client, "POST", "/post302", "{\"a\":1}", t);
  EXPECT_EQ(r.body, "GET []") << "302 after a POST is a GET without a body";

  r = http_fetch(url, client, "GET", "/away", "", t);
  ASSERT_EQ(r.status, 200);
  auto j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["path"], "/elsewhere");
  EXPECT_EQ(j["auth"], "") << "Authorization is not sent on to another host";

  r = http_fetch(url, client, "GET", "/loop", "", t);
  EXPECT_EQ(r.status, 302);
  EXPECT_NE(r.detail.find("redirect loop"), std::string::npos) << r.detail;

  r = http_fetch(url, client, "GET", "/chain0", "", t);
  EXPECT_EQ(r.status, 302);
  EXPECT_EQ(r.redirects, kMaxRedirects);
  EXPECT_NE(r.detail.find("more than 5 redirects"), std::string::npos) << r.detail;
}

// Issue 23: Azure's api-key: or x-api-key: followed a redirect to another host. The user's
// headers belong to the URL's origin: another port (or host, or scheme) gets none of them.
TEST(HttpFetch, CustomHeadersStayWithTheirOrigin) {
  auto echo = [](const test::ScriptedRequest& req) {
    nlohmann::json j = {{"path", req.path},
                        {"method", req.method},
                        {"api-key", req.header("api-key")},
                        {"x-api-key", req.header("x-api-key")},
                        {"auth", req.header("Authorization")}};
    return test::http_response(200, j.dump());
  };
  std::string home;  // the first server's URL
  int s_port = 0;
  test::ScriptedServer other([&](const test::ScriptedRequest& req) {
    if (req.path == "/back") return redirect(302, home + "/echo");
    return echo(req);
  });
  test::ScriptedServer s([&](const test::ScriptedRequest& req) {
    if (req.path == "/away") return redirect(307, other.url() + "/v1/completions");
    if (req.path == "/there-and-back") return redirect(302, other.url() + "/back");
    if (req.path == "/local") return redirect(301, "/echo");
    if (req.path == "/by-name") return redirect(302, "http://localhost:" + std::to_string(s_port) + "/echo");
    return echo(req);
  });
  home = s.url();
  s_port = s.port();
  HttpUrl url = parse_http_url(s.url());
  HttpClientConfig client;
  client.extra_headers = "api-key: azure-secret\r\nx-api-key: other-secret\r\nAuthorization: Bearer k\r\n";
  auto t = std::chrono::seconds(5);

  HttpFetchResult r = http_fetch(url, client, "POST", "/away", "{\"prompt\":\"x\"}", t);
  ASSERT_EQ(r.status, 200) << r.detail;
  auto j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["path"], "/v1/completions");
  EXPECT_EQ(j["method"], "POST") << "307 repeats the POST";
  EXPECT_EQ(j["api-key"], "") << "api-key sent to another port";
  EXPECT_EQ(j["x-api-key"], "") << "x-api-key sent to another port";
  EXPECT_EQ(j["auth"], "");
  EXPECT_TRUE(r.headers_withheld);
  ASSERT_EQ(other.requests().size(), 1u);
  EXPECT_EQ(other.requests()[0].head.find("api-key"), std::string::npos) << other.requests()[0].head;

  r = http_fetch(url, client, "GET", "/local", "", t);
  j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["api-key"], "azure-secret") << "a redirect within the origin keeps them";
  EXPECT_EQ(j["x-api-key"], "other-secret");
  EXPECT_EQ(j["auth"], "Bearer k");
  EXPECT_FALSE(r.headers_withheld);

  r = http_fetch(url, client, "GET", "/there-and-back", "", t);
  EXPECT_EQ(r.redirects, 2);
  j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["path"], "/echo");
  EXPECT_EQ(j["api-key"], "azure-secret") << "back at their origin, the headers are sent again";
  EXPECT_TRUE(r.headers_withheld);
  for (const auto& req : other.requests()) EXPECT_EQ(req.header("x-api-key"), "") << req.path;

  // Another host name for the same server and port is another origin too.
  r = http_fetch(url, client, "GET", "/by-name", "", t);
  ASSERT_EQ(r.status, 200) << r.detail;
  j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["path"], "/echo");
  EXPECT_EQ(j["api-key"], "") << "sent on from 127.0.0.1 to localhost";
  EXPECT_TRUE(r.headers_withheld);
}

}  // namespace
}  // namespace cuprobe
