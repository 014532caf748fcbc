#include "analysis/interval_union.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(IntervalUnion, OverlappingStreamsAreNotCountedTwice) {
  std::vector<Interval> v{{10, 20}, {0, 5}, {15, 30}, {30, 31}, {40, 40}, {2, 4}};
  EXPECT_EQ(union_length(v), 5 + 21 + 0);
  std::vector<Interval> none;
  EXPECT_EQ(union_length(none), 0);
}

}  // namespace
}  // namespace cuprobe
