#include "import/kineto_json/timestamp.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(Timestamp, MicrosecondsToExactNanoseconds) {
  EXPECT_EQ(microseconds_text_to_ns("5176567546613.683"), 5176567546613683);
  EXPECT_EQ(microseconds_text_to_ns("1700000000000000"), 1700000000000000000);
  EXPECT_EQ(microseconds_text_to_ns("6.08"), 6080);
  EXPECT_EQ(microseconds_text_to_ns("0.0005"), 1);  // rounds the 4th fraction digit
  EXPECT_EQ(microseconds_text_to_ns("-2.5"), -2500);
  EXPECT_EQ(microseconds_text_to_ns("1.5e3"), 1500000);
}

TEST(Timestamp, RejectsGarbage) {
  for (const char* bad : {"", "-", "1.", "1.2.3", "abc", "99999999999999999999", "1e999"}) {
    EXPECT_FALSE(microseconds_text_to_ns(bad).has_value()) << bad;
  }
  EXPECT_EQ(integer_text("42"), 42);
  EXPECT_EQ(integer_text("7.0"), 7);
  EXPECT_FALSE(integer_text("7.5").has_value());
  EXPECT_EQ(integer_text("9223372036854775807"), INT64_MAX);  // every int64, exactly
  EXPECT_EQ(integer_text("9007199254740993"), 9007199254740993);
  EXPECT_FALSE(integer_text("9223372036854775808").has_value());
}

}  // namespace
}  // namespace cuprobe
