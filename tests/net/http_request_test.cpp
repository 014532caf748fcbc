#include "net/http_request.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace cuprobe {
namespace {

TEST(HttpRequest, SimpleRequestHasHostAndNoBodyForGet) {
  EXPECT_EQ(build_simple_request("GET", "/health", "h:1"),
            "GET /health HTTP/1.1\r\nHost: h:1\r\nUser-Agent: cuprobe\r\nAccept: */*\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(build_simple_request("POST", "", "h:1", "{}", "X-A: 1\r\n"),
            "POST / HTTP/1.1\r\nHost: h:1\r\nUser-Agent: cuprobe\r\nAccept: */*\r\nConnection: close\r\nX-A: "
            "1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
}

TEST(HttpRequest, HeaderLinesAreChecked) {
  EXPECT_EQ(header_line("Authorization: Bearer k"), "Authorization: Bearer k\r\n");
  for (const char* bad : {"NoColon", ": empty name", "Bad Name: x", "X: a\r\nInjected: 1"}) {
    EXPECT_THROW(header_line(bad), Error) << bad;
  }
}

TEST(HttpRequest, LoadRequestsLeaveTheConnectionToTheirOwner) {
  EXPECT_EQ(format_http_request("POST", "/v1/completions", "h:1", "text/event-stream", "{}", "", false),
            "POST /v1/completions HTTP/1.1\r\nHost: h:1\r\nUser-Agent: cuprobe\r\nAccept: text/event-stream\r\n"
            "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
}

TEST(HttpRequest, NextHopRewritesTheTargetAndAddsHopHeaders) {
  std::string req = build_simple_request("POST", "/v1/x", "h:1", "{}", "Authorization: Bearer k\r\n");
  EXPECT_EQ(for_next_hop(req, "", ""), req);
  EXPECT_EQ(for_next_hop("GET /health HTTP/1.1\r\nHost: h:1\r\n\r\n", "http://h:1", "Proxy-Authorization: Basic x\r\n"),
            "GET http://h:1/health HTTP/1.1\r\nProxy-Authorization: Basic x\r\nHost: h:1\r\n\r\n");
  EXPECT_EQ(for_next_hop("GET / HTTP/1.1\r\nHost: h:1\r\n\r\n", "", "Connection: close\r\n"),
            "GET / HTTP/1.1\r\nConnection: close\r\nHost: h:1\r\n\r\n");
}

}  // namespace
}  // namespace cuprobe
