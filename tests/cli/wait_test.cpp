#include <gtest/gtest.h>

#include "support/run_cuprobe.h"
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

}  // namespace
}  // namespace cuprobe::test
