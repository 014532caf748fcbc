// Keep-alive on load connections: one connection per request in flight, the
// retry when a server closed a kept-alive connection, and no reuse where the
// server says "Connection: close" or --no-keep-alive asks for cold connections.
#include <gtest/gtest.h>

#include "load/load_runner.h"
#include "load/request_builder.h"
#include "net/tls_library.h"
#include "support/run_cuprobe.h"
#include "support/scripted_server.h"
#include "support/stream_server.h"

namespace cuprobe {
namespace {

using test::StreamServer;
using test::StreamServerOptions;

struct Quiet final : LoadObserver {};

LoadResult run_requests(std::uint16_t port, int concurrency, std::uint64_t requests, bool keep_alive,
                        std::shared_ptr<const TlsContext> tls = nullptr) {
  LoadOptions o;
  o.port = port;
  o.concurrency = concurrency;
  o.requests = requests;
  o.keep_alive = keep_alive;
  o.tls = std::move(tls);
  o.request_timeout_ns = 5'000'000'000;
  o.run_timeout_ns = 30'000'000'000;
  RequestTemplate t;
  t.path = "/v1/completions";
  t.authority = "127.0.0.1:" + std::to_string(port);
  t.model = "test-model";
  RequestFactory f = [&](std::uint64_t i) {
    Prompt p;
    p.text = "word number " + std::to_string(i);
    p.max_tokens = 4;
    return build_http_request(t, p);
  };
  Quiet quiet;
  return run_load(o, f, quiet);
}

void expect_all_ok(const LoadResult& r, std::size_t n) {
  ASSERT_EQ(r.records.size(), n);
  for (const auto& x : r.records) EXPECT_TRUE(x.ok()) << x.index << ": " << x.error << ": " << x.error_detail;
}

StreamServerOptions keep_alive_server() {
  StreamServerOptions so;
  so.ttft_us = 500;
  so.itl_us = 200;
  so.keep_alive = true;
  return so;
}

TEST(LoadKeepAlive, OneConnectionPerRequestInFlight) {
  StreamServer s(keep_alive_server());
  LoadResult r = run_requests(s.port(), 4, 40, true);
  expect_all_ok(r, 40);
  EXPECT_EQ(s.connections_accepted(), 4u);
  EXPECT_EQ(r.connections_opened, 4u);
  EXPECT_EQ(r.requests_reused, 36u);
  EXPECT_EQ(r.retries, 0u);
  for (const auto& x : r.records) EXPECT_EQ(x.content_ns.size(), 4u);
}

TEST(LoadKeepAlive, NoKeepAliveOpensOnePerRequest) {
  StreamServer s(keep_alive_server());
  LoadResult r = run_requests(s.port(), 4, 40, false);
  expect_all_ok(r, 40);
  EXPECT_EQ(s.connections_accepted(), 40u);
  EXPECT_EQ(r.connections_opened, 40u);
  EXPECT_EQ(r.requests_reused, 0u);
}

TEST(LoadKeepAlive, ServerThatClosesIsNotReused) {
  StreamServerOptions so = keep_alive_server();
  so.keep_alive = false;  // "Connection: close" on every response
  StreamServer s(so);
  LoadResult r = run_requests(s.port(), 4, 40, true);
  expect_all_ok(r, 40);
  EXPECT_EQ(s.connections_accepted(), 40u);
  EXPECT_EQ(r.requests_reused, 0u);
}

TEST(LoadKeepAlive, ClosedReusedConnectionIsRetriedOnce) {
  StreamServerOptions so = keep_alive_server();
  so.close_reused_every = 5;  // the server drops every 5th request that arrives on a reused connection
  StreamServer s(so);
  LoadResult r = run_requests(s.port(), 4, 40, true);
  expect_all_ok(r, 40);
  EXPECT_GT(r.retries, 0u);
  EXPECT_EQ(r.retries, s.reused_requests_dropped());
  EXPECT_EQ(r.connections_opened, 4u + r.retries);
  EXPECT_EQ(s.connections_accepted(), r.connections_opened);
}

TEST(LoadKeepAlive, TlsSessionIsKeptWithItsConnection) {
  std::string why;
  if (!tls_library(why)) GTEST_SKIP() << why;
  std::string dir = test::temp_dir();
  if (!test::make_self_signed_certificate(dir, "IP:127.0.0.1")) GTEST_SKIP() << "no openssl command";
  std::string body = "data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
  test::ScriptedServer s(
      [&](const test::ScriptedRequest&) {
        return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: " + std::to_string(body.size()) +
               "\r\n\r\n" + body;
      },
      TlsContext::server(dir + "/cert.pem", dir + "/key.pem"), true);
  LoadResult r = run_requests(s.port(), 1, 10, true, TlsContext::client(TlsOptions{dir + "/cert.pem", false}));
  expect_all_ok(r, 10);
  EXPECT_EQ(s.connections(), 1u);
  EXPECT_EQ(r.requests_reused, 9u);
}

}  // namespace
}  // namespace cuprobe
