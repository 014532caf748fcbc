#include "net/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "common/error.h"
#include "support/background_process.h"
#include "support/stalled_clients.h"

namespace cuprobe::test {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A server answering "/metrics" on a thread of its own, stopped when the test ends.
struct RunningServer {
  explicit RunningServer(HttpServerLimits limits = {}) : server({"127.0.0.1", 0}, limits) {
    thread = std::thread([this] {
      server.serve(
          [this](const HttpRequest& r) -> HttpResponse {
            ++served;
            if (r.path != "/metrics") return {404, "text/plain", "no\n"};
            return {200, "text/plain", "accept=" + r.accept + "\n"};
          },
          &stop);
    });
  }
  ~RunningServer() {
    stop = 1;
    thread.join();
  }
  HttpServer server;
  volatile int stop = 0;
  std::atomic<int> served{0};
  std::thread thread;
};

int connect_to(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  return fd;
}

void send_text(int fd, const std::string& text) { send(fd, text.data(), text.size(), MSG_NOSIGNAL); }

TEST(HttpServer, ListenAddresses) {
  EXPECT_EQ(parse_listen_address("127.0.0.1:9401").host, "127.0.0.1");
  EXPECT_EQ(parse_listen_address("127.0.0.1:9401").port, 9401);
  EXPECT_EQ(parse_listen_address("[::1]:80").host, "::1");
  EXPECT_EQ(parse_listen_address("[::1]:80").text(), "[::1]:80");  // messages print IPv6 in brackets
  EXPECT_EQ(parse_listen_address("127.0.0.1:9401").text(), "127.0.0.1:9401");
  EXPECT_EQ(parse_listen_address(":9401").host, "0.0.0.0");
  for (const char* bad : {"9401", "host:", "host:99999", "host:12x"}) {
    try {
      parse_listen_address(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), kExitUsage);
    }
  }
}

TEST(HttpServer, AnswersRequestsUntilStopped) {
  HttpServer server({"127.0.0.1", 0});
  ASSERT_GT(server.port(), 0);
  volatile int stop = 0;
  std::atomic<int> served{0};
  std::thread t([&] {
    server.serve(
        [&](const HttpRequest& r) -> HttpResponse {
          ++served;
          if (r.path != "/metrics") return {404, "text/plain", "no\n"};
          return {200, "text/plain", "accept=" + r.accept + "\n"};
        },
        &stop);
  });
  int status = 0;
  EXPECT_EQ(http_get(server.port(), "/metrics?x=1", "application/openmetrics-text", &status),
            "accept=application/openmetrics-text\n");
  EXPECT_EQ(status, 200);
  http_get(server.port(), "/other", "", &status);
  EXPECT_EQ(status, 404);
  stop = 1;
  t.join();
  EXPECT_EQ(served.load(), 2);
}

TEST(HttpServer, ABusyPortIsOneClearError) {
  HttpServer first({"127.0.0.1", 0});
  try {
    HttpServer second({"127.0.0.1", first.port()});
    ADD_FAILURE() << "bound twice";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot listen on 127.0.0.1:" + std::to_string(first.port())),
              std::string::npos)
        << e.what();
  }
}

// Issue 23: twenty sockets that never finished their request delayed /metrics by 100 s.
TEST(HttpServer, HalfOpenSocketsDoNotDelayAScrape) {
  RunningServer s;
  StalledClients stalled(s.server.port(), 200);
  ASSERT_EQ(stalled.connected(), 200u);
  auto start = Clock::now();
  int status = 0;
  EXPECT_EQ(http_get(s.server.port(), "/metrics", "", &status), "accept=*/*\n");
  EXPECT_EQ(status, 200);
  EXPECT_LT(seconds_since(start), 1.0);

  // Past the cap (256), the oldest waiting sockets make room; a scrape still answers at once.
  StalledClients more(s.server.port(), 150);
  ASSERT_EQ(more.connected(), 150u);
  start = Clock::now();
  http_get(s.server.port(), "/metrics", "", &status);
  EXPECT_EQ(status, 200);
  EXPECT_LT(seconds_since(start), 1.0);
  EXPECT_GE(stalled.closed_by_server(), 200u + 150u + 1u - 256u);

  // The others are closed at their 2 s deadline, not held.
  std::this_thread::sleep_for(std::chrono::milliseconds(2600));
  EXPECT_EQ(stalled.closed_by_server() + more.closed_by_server(), 350u);
}

TEST(HttpServer, ATricklingClientCannotStretchItsDeadline) {
  HttpServerLimits limits;
  limits.head_timeout = std::chrono::milliseconds(500);
  RunningServer s(limits);
  int fd = connect_to(s.server.port());
  std::string request = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ";
  auto start = Clock::now();
  bool closed = false;
  for (std::size_t i = 0; !closed && seconds_since(start) < 3; ++i) {
    send_text(fd, std::string(1, i < request.size() ? request[i] : 'a'));
    closed = closed_by_peer(fd, 100);
  }
  EXPECT_TRUE(closed);
  EXPECT_LT(seconds_since(start), 1.2);
  EXPECT_EQ(s.served.load(), 0);
  close(fd);
}

// Sends `request` on a new connection; what the server sent before closing it ("" when it did not close).
std::string answer_to(int port, const std::string& request) {
  int fd = connect_to(port);
  send_text(fd, request);
  std::string answer;
  bool closed = closed_by_peer(fd, 1000, &answer);
  close(fd);
  return closed ? answer : "";
}

TEST(HttpServer, AnOversizedOrForeignHeadGetsAnErrorAndIsClosed) {
  RunningServer s;
  int port = s.server.port();
  std::string answer = answer_to(port, "GET /metrics HTTP/1.1\r\n" + std::string(20000, 'a'));
  EXPECT_EQ(answer.rfind("HTTP/1.1 431 ", 0), 0u) << answer;
  answer = answer_to(port, "HELLO\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 400 ", 0), 0u) << answer;
  answer = answer_to(port, "GET /me\ntrics HTTP/1.1\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 400 ", 0), 0u) << "a bare LF in the request line: " << answer;
  answer = answer_to(port, "POST /metrics HTTP/1.1\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 405 ", 0), 0u) << answer;
  EXPECT_EQ(s.served.load(), 0);

  answer = answer_to(port, "HEAD /metrics HTTP/1.1\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << answer;
  EXPECT_NE(answer.find("Content-Length: 8\r\n"), std::string::npos) << answer;
  ASSERT_GE(answer.size(), 4u);
  EXPECT_EQ(answer.substr(answer.size() - 4), "\r\n\r\n") << "HEAD: no body";
}

TEST(HttpServer, AtTheCapTheOldestWaitingConnectionIsClosedFirst) {
  HttpServerLimits limits;
  limits.max_connections = 4;
  RunningServer s(limits);
  std::vector<int> fds;
  for (int i = 0; i < 4; ++i) {
    fds.push_back(connect_to(s.server.port()));
    send_text(fds.back(), "GET /metrics HTTP/1.1\r\n");
  }
  int newest = connect_to(s.server.port());  // the fifth: the first one goes
  EXPECT_TRUE(closed_by_peer(fds[0], 1000));
  for (int i = 1; i < 4; ++i) EXPECT_FALSE(closed_by_peer(fds[i], 100)) << i;
  send_text(newest, "GET /metrics HTTP/1.1\r\n\r\n");
  std::string answer;
  EXPECT_TRUE(closed_by_peer(newest, 1000, &answer));
  EXPECT_EQ(answer.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << answer;
  for (int fd : fds) close(fd);
  close(newest);
}

}  // namespace
}  // namespace cuprobe::test
