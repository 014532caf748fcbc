#include "net/no_proxy.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(NoProxy, NamesMatchThemselvesAndTheirSubdomains) {
  EXPECT_TRUE(no_proxy_matches("example.com", "example.com", 80));
  EXPECT_TRUE(no_proxy_matches("example.com", "api.example.com", 80));
  EXPECT_TRUE(no_proxy_matches(".example.com", "example.com", 80));
  EXPECT_TRUE(no_proxy_matches(".example.com", "a.b.example.com", 443));
  EXPECT_TRUE(no_proxy_matches("EXAMPLE.com.", "Api.Example.COM", 80));
  EXPECT_FALSE(no_proxy_matches("example.com", "badexample.com", 80));
  EXPECT_FALSE(no_proxy_matches("api.example.com", "example.com", 80));
  EXPECT_FALSE(no_proxy_matches("", "example.com", 80));
}

TEST(NoProxy, ListsStarAndSeparators) {
  EXPECT_TRUE(no_proxy_matches("*", "anything.at.all", 1));
  EXPECT_TRUE(no_proxy_matches("a.org, b.org ,c.org", "c.org", 80));
  EXPECT_TRUE(no_proxy_matches("a.org b.org\tc.org", "b.org", 80));
  EXPECT_TRUE(no_proxy_matches("a.org,,localhost", "localhost", 80));
  EXPECT_FALSE(no_proxy_matches("a.org,b.org", "c.org", 80));
}

TEST(NoProxy, PortsLimitAnEntry) {
  EXPECT_TRUE(no_proxy_matches("example.com:8080", "example.com", 8080));
  EXPECT_FALSE(no_proxy_matches("example.com:8080", "example.com", 80));
  EXPECT_TRUE(no_proxy_matches("127.0.0.1:30000", "127.0.0.1", 30000));
  EXPECT_FALSE(no_proxy_matches("127.0.0.1:30000", "127.0.0.1", 30001));
  EXPECT_TRUE(no_proxy_matches("[::1]:8000", "::1", 8000));
  EXPECT_FALSE(no_proxy_matches("[::1]:8000", "::1", 8001));
  EXPECT_FALSE(no_proxy_matches("example.com:notaport", "example.com", 80));
}

TEST(NoProxy, IpLiteralsAndRanges) {
  EXPECT_TRUE(no_proxy_matches("127.0.0.1", "127.0.0.1", 80));
  EXPECT_FALSE(no_proxy_matches("127.0.0.1", "127.0.0.2", 80));
  EXPECT_TRUE(no_proxy_matches("10.0.0.0/8", "10.20.30.40", 80));
  EXPECT_FALSE(no_proxy_matches("10.0.0.0/8", "11.0.0.1", 80));
  EXPECT_TRUE(no_proxy_matches("192.168.1.0/23", "192.168.0.7", 80));
  EXPECT_TRUE(no_proxy_matches("::1", "::1", 80));
  EXPECT_TRUE(no_proxy_matches("[::1]", "::1", 80));
  EXPECT_TRUE(no_proxy_matches("fd00::/8", "fd12:3456::1", 80));
  EXPECT_FALSE(no_proxy_matches("fd00::/8", "fe80::1", 80));
  // An address entry never matches a name (names are not resolved), nor another family.
  EXPECT_FALSE(no_proxy_matches("127.0.0.1", "localhost", 80));
  EXPECT_FALSE(no_proxy_matches("127.0.0.1", "::1", 80));
  EXPECT_FALSE(no_proxy_matches("0.0.0.1", "1", 80));
}

}  // namespace
}  // namespace cuprobe
