#include "common/secrets.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(Secrets, RegisteredValuesAndBearerTokensAreRedacted) {
  add_secret("Bearer sk-unit-0123456789");
  add_secret("  hdr-secret-value  ");
  EXPECT_EQ(redact_secrets("got sk-unit-0123456789 twice: sk-unit-0123456789"), "got *** twice: ***");
  EXPECT_EQ(redact_secrets("Authorization: Bearer sk-unit-0123456789"), "Authorization: ***");
  EXPECT_EQ(redact_secrets("x hdr-secret-value y"), "x *** y");
  EXPECT_EQ(redact_secrets("nothing to hide"), "nothing to hide");
}

TEST(Secrets, ShortValuesAreNotRemembered) {
  add_secret("abc");
  add_secret("");
  EXPECT_EQ(redact_secrets("abc abcd"), "abc abcd");
}

TEST(Secrets, CredentialHeaderNames) {
  for (const char* name : {"Authorization", "proxy-authorization", "X-Api-Key", "api-key", "Cookie", "X-Auth-Token",
                           "X-Client-Secret", "X-Password"}) {
    EXPECT_TRUE(is_secret_header(name)) << name;
  }
  for (const char* name : {"X-Team", "Accept", "X-Request-Id", "User-Agent"})
    EXPECT_FALSE(is_secret_header(name)) << name;
}

}  // namespace
}  // namespace cuprobe
