// The message forms of bytes from input files and peers.
#include "common/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace cuprobe {
namespace {

TEST(Utf8, PrintableAsciiMarksEveryOtherByteAndCuts) {
  EXPECT_EQ(printable_ascii("HTTP/1.1 200\r\n\x80ok"), "HTTP/1.1 200???ok");
  EXPECT_EQ(printable_ascii(std::string(100, 'a')), std::string(80, 'a'));
  EXPECT_EQ(printable_ascii("abcdef", 3), "abc");
}

TEST(Utf8, PrintableOneLineEscapesControlBytes) { EXPECT_EQ(printable_one_line("a\nb"), "a\\x0ab"); }

}  // namespace
}  // namespace cuprobe
