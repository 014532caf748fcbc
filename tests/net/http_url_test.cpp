#include "net/http_url.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "support/error_text.h"

namespace cuprobe {
namespace {

TEST(HttpUrl, HostPortPath) {
  HttpUrl u = parse_http_url("http://127.0.0.1:30000/v1/completions");
  EXPECT_EQ(u.host, "127.0.0.1");
  EXPECT_EQ(u.port, 30000);
  EXPECT_EQ(u.path, "/v1/completions");
  EXPECT_EQ(u.authority(), "127.0.0.1:30000");
}

TEST(HttpUrl, DefaultsAndBareHost) {
  HttpUrl u = parse_http_url("localhost");
  EXPECT_EQ(u.host, "localhost");
  EXPECT_EQ(u.port, 80);
  EXPECT_EQ(u.path, "");
  EXPECT_EQ(parse_http_url("http://h:8000/").path, "");
}

TEST(HttpUrl, Ipv6Literal) {
  HttpUrl u = parse_http_url("http://[::1]:8000/x");
  EXPECT_EQ(u.host, "::1");
  EXPECT_EQ(u.port, 8000);
  EXPECT_EQ(u.authority(), "[::1]:8000");
}

TEST(HttpUrl, HttpsDefaultsToPort443) {
  HttpUrl u = parse_http_url("https://api.example.com/v1/completions");
  EXPECT_TRUE(u.https);
  EXPECT_EQ(u.port, 443);
  EXPECT_EQ(u.base(), "https://api.example.com:443");
  EXPECT_EQ(parse_http_url("https://h:8443").port, 8443);
  EXPECT_FALSE(parse_http_url("http://h").https);
}

TEST(HttpUrl, BadInputIsUsageError) {
  for (const char* bad : {"http://", "http://:80", "http://h:0", "http://h:65536", "http://h:8x",
                          "http://h:", "ftp://h", "http://[::1", "http://h/a?b=1", "http://u@h/"}) {
    EXPECT_THROW(parse_http_url(bad), Error) << bad;
  }
}

// Issue 39: user info (a password) is never echoed in the message.
TEST(HttpUrl, UserInfoIsNotEchoed) {
  EXPECT_EQ(test::error_text([] { parse_http_url("http://user:s3cret@host:8000/v1"); }),
            "invalid URL 'http://***@host:8000/v1': user info is not supported");
  EXPECT_EQ(test::error_text([] { parse_http_url("https://a:b@c@host/x?q"); }),
            "invalid URL 'https://***@host/x?q': query strings, fragments and spaces are not supported in the path");
}

}  // namespace
}  // namespace cuprobe
