#include <gtest/gtest.h>

#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

TEST(Main, NoVerbIsUsageError) {
  auto r = run_cuprobe({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("usage"), std::string::npos);
}

TEST(Main, UnknownVerbIsUsageError) {
  auto r = run_cuprobe({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown verb 'frobnicate'"), std::string::npos);
}

TEST(Main, HelpListsVerbs) {
  auto r = run_cuprobe({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("verbs:"), std::string::npos);
}

}  // namespace
}  // namespace cuprobe::test
