#include "net/http_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "common/error.h"
#include "support/background_process.h"

namespace cuprobe::test {
namespace {

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

}  // namespace
}  // namespace cuprobe::test
