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

}  // namespace
}  // namespace cuprobe
