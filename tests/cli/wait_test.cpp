#include <gtest/gtest.h>

#include "support/run_cuprobe.h"
#include "support/scripted_server.h"
#include "support/stream_server.h"

namespace cuprobe::test {
namespace {

TEST(Wait, ReadyServerListsModels) {
  StreamServer s;
  auto r = run_cuprobe({"wait", s.url() + "/v1/completions", "--timeout", "5s"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ready: " + s.url()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("models: test-model"), std::string::npos) << r.out;
}

TEST(Wait, WaitsThroughLoadingAndSaysSo) {
  StreamServerOptions o;
  o.loading_ms = 2500;  // long enough that a slow start of cuprobe on a busy machine still sees it loading
  StreamServer s(o);
  auto r = run_cuprobe({"wait", s.url(), "--timeout", "10s", "--interval", "100ms"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("loading (/health: 503)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ready"), std::string::npos) << r.err;
}

TEST(Wait, ServerWithoutHealthEndpoint) {
  StreamServerOptions o;
  o.health_endpoint = false;
  StreamServer s(o);
  auto r = run_cuprobe({"wait", s.url(), "--timeout", "5s"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(Wait, TimesOutWithLastStateAndExit1) {
  std::string url;
  {
    StreamServer s;
    url = s.url();
  }
  auto r = run_cuprobe({"wait", url, "--timeout", "600ms", "--interval", "100ms"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not ready after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("connect_refused"), std::string::npos) << r.err;
}

TEST(Wait, UsageErrors) {
  EXPECT_EQ(run_cuprobe({"wait"}).exit_code, 2);
  auto r = run_cuprobe({"wait", "ftp://example.com"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("only http:// and https://"), std::string::npos);
  EXPECT_EQ(run_cuprobe({"wait", "http://127.0.0.1:1", "--timeout", "soon"}).exit_code, 2);
  EXPECT_EQ(run_cuprobe({"wait", "--help"}).exit_code, 0);
}

// Issue 23: -H headers followed a redirect to another host. /health and /v1/models both
// redirect to another port: the server there sees none of the keys, and stderr says so once.
TEST(Wait, RedirectToAnotherPortCarriesNoCustomHeaders) {
  ScriptedServer other([](const ScriptedRequest& req) {
    if (req.path == "/v1/models") return http_response(200, "{\"data\":[{\"id\":\"elsewhere\"}]}");
    return http_response(200, "ok", "text/plain");
  });
  std::string other_url = other.url();
  ScriptedServer s([&](const ScriptedRequest& req) {
    return "HTTP/1.1 307 Temporary Redirect\r\nLocation: " + other_url + req.path +
           "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  });
  auto r = run_cuprobe({"wait", s.url(), "-H", "api-key: azure-secret", "-H", "x-api-key: other-secret", "--api-key",
                        "sk-secret", "--timeout", "5s"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("models: elsewhere"), std::string::npos) << r.out;
  ASSERT_GE(other.requests().size(), 2u);
  for (const auto& req : other.requests()) {
    EXPECT_EQ(req.head.find("secret"), std::string::npos) << req.head;
  }
  for (const auto& req : s.requests()) {
    EXPECT_NE(req.head.find("api-key: azure-secret"), std::string::npos) << "the URL's own origin gets them";
  }
  std::string note = "the -H headers and Authorization are not sent there";
  std::size_t at = r.err.find(note);
  EXPECT_NE(at, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(note, at + 1), std::string::npos) << "said once: " << r.err;
  EXPECT_NE(r.err.find("leads to " + other_url), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cuprobe::test
