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

}  // namespace
}  // namespace cuprobe
