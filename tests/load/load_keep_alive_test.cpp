// Keep-alive on load connections: one connection per request in flight, the
// retry when a server closed a kept-alive connection before the request was
// written (never after: issue 39), and no reuse where the
// server says "Connection: close" or --no-keep-alive asks for cold connections.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "load/load_runner.h"
#include "load/request_builder.h"
#include "net/tls_session.h"
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

// Issue 39: a server that reads a request and then drops the connection may have processed it:
// the request fails, it is never sent again (RFC 9110 9.2.2). 40 requests, 40 POSTs at the server.
TEST(LoadKeepAlive, ARequestTheServerReadIsNeverSentAgain) {
  StreamServerOptions so = keep_alive_server();
  so.close_reused_every = 5;  // the server drops every 5th request that arrives on a reused connection
  StreamServer s(so);
  LoadResult r = run_requests(s.port(), 4, 40, true);
  ASSERT_EQ(r.records.size(), 40u);
  EXPECT_EQ(r.retries, 0u);
  std::uint64_t failed = 0;
  for (const auto& x : r.records) {
    if (x.ok()) continue;
    ++failed;
    EXPECT_EQ(x.error, "server_closed");
    EXPECT_NE(x.error_detail.find("not sent again"), std::string::npos) << x.error_detail;
  }
  EXPECT_GT(failed, 0u);
  EXPECT_EQ(failed, s.reused_requests_dropped());
  EXPECT_EQ(s.served().size() + s.reused_requests_dropped(), 40u);  // each request reached the server once
}

// A raw server: the first request on a connection is answered (kept alive); the second is cut off
// after its first bytes (closed with the rest unread: a reset), so it was never fully written.
class CutOffServer {
 public:
  CutOffServer() {
    listen_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(listen_, 8);
    socklen_t len = sizeof a;
    ::getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~CutOffServer() {
    ::shutdown(listen_, SHUT_RDWR);
    thread_.join();
    ::close(listen_);
  }
  std::uint16_t port() const { return port_; }
  int whole_requests() const { return whole_; }
  int cut_off() const { return cut_; }

 private:
  // Reads one request whole (headers, then Content-Length bytes); false when the connection ended.
  static bool read_request(int fd) {
    std::string in;
    char buf[65536];
    std::size_t need = std::string::npos;
    while (need == std::string::npos || in.size() < need) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n <= 0) return false;
      in.append(buf, static_cast<std::size_t>(n));
      std::size_t end = in.find("\r\n\r\n");
      if (need == std::string::npos && end != std::string::npos) {
        std::size_t at = in.find("Content-Length: ");
        need = end + 4 + std::stoul(in.substr(at + 16));
      }
    }
    return true;
  }
  void serve() {
    const std::string body = "data: {\"choices\":[{\"text\":\"a\",\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
    const std::string answer =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: " + std::to_string(body.size()) +
        "\r\n\r\n" + body;
    for (int fd; (fd = ::accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC)) >= 0;) {
      if (read_request(fd)) {
        ++whole_;
        (void)!::write(fd, answer.data(), answer.size());
        char head[16];
        if (::read(fd, head, sizeof head) > 0) ++cut_;  // the next request's first bytes, then closed unread
      }
      ::close(fd);
    }
  }
  int listen_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<int> whole_{0}, cut_{0};
  std::thread thread_;
};

// The retry that stays: a reused connection closed before the request was fully written
// (a 32 MB prompt, cut off after 16 bytes) is sent once more on a new connection, and counted.
TEST(LoadKeepAlive, ARequestCutOffBeforeItWasWrittenIsSentOnceMore) {
  CutOffServer s;
  LoadOptions o;
  o.port = s.port();
  o.concurrency = 1;
  o.requests = 2;
  o.keep_alive = true;
  o.request_timeout_ns = 20'000'000'000;
  o.run_timeout_ns = 60'000'000'000;
  RequestTemplate t;
  t.path = "/v1/completions";
  t.authority = "127.0.0.1:" + std::to_string(s.port());
  t.model = "test-model";
  RequestFactory f = [&](std::uint64_t i) {
    Prompt p;
    p.text = i == 0 ? "short" : std::string(32 << 20, 'w');
    p.max_tokens = 1;
    return build_http_request(t, p);
  };
  Quiet quiet;
  LoadResult r = run_load(o, f, quiet);
  expect_all_ok(r, 2);
  EXPECT_EQ(r.retries, 1u);
  EXPECT_EQ(s.cut_off(), 1);
  EXPECT_EQ(s.whole_requests(), 2);  // the second request read whole once, on the new connection
}

TEST(LoadKeepAlive, TlsSessionIsKeptWithItsConnection) {
  std::string why;
  if (!tls_available(why)) GTEST_SKIP() << why;
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
