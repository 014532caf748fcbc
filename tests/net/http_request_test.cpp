#include "net/http_request.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "support/error_text.h"

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

// Issue 39: a key with a trailing CR/LF (a CRLF key file) is refused naming the header, never its value;
// control bytes and cuprobe's own headers are refused.
TEST(HttpRequest, HeaderErrorsNameTheHeaderNeverItsValue) {
  const std::string secret = "sk-SECRET123";
  EXPECT_EQ(test::error_text([&] { header_line("Authorization: Bearer " + secret + "\r\n"); }),
            "header 'Authorization': its value holds a CR or LF (a key file with CRLF, a secret with a trailing "
            "newline?); the value is not shown");
  EXPECT_EQ(test::error_text([&] { header_line("X-Key: " + secret + "\x1b[2J"); }),
            "header 'X-Key': its value holds a control byte; the value is not shown");
  for (const std::string& bad : {secret, "Bad Name: " + secret, "X\r\nY: " + secret}) {
    std::string e = test::error_text([&] { header_line(bad); });
    EXPECT_EQ(e.find(secret), std::string::npos) << e;
    EXPECT_NE(e, "no error");
  }
  for (const char* own : {"Host: evil", "content-length: 5", "Transfer-Encoding: chunked", "Connection: close"}) {
    EXPECT_NE(test::error_text([&] { header_line(own); }).find("is cuprobe's own"), std::string::npos) << own;
  }
  EXPECT_EQ(header_line("X-Tab: a\tb"), "X-Tab: a\tb\r\n");
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
