#include "exporter/mean_window.h"

#include <gtest/gtest.h>

#include <cmath>

namespace cuprobe::test {
namespace {

TEST(MeanWindow, MeansSinceTheLastTakeAndRepeatsThemWhenNothingCame) {
  MeanWindow w(2, 0);
  w.add(1, {10, NAN});
  w.add(2, {20, 5});
  auto m = w.take(3);
  EXPECT_DOUBLE_EQ(m[0], 15);
  EXPECT_DOUBLE_EQ(m[1], 5);  // NaN rows are not counted
  EXPECT_EQ(w.rows_taken(), 2);
  w.add(4, {40, 1});
  EXPECT_DOUBLE_EQ(w.take(5)[0], 40);
  auto again = w.take(6);  // nothing new: the last means again
  EXPECT_DOUBLE_EQ(again[0], 40);
  EXPECT_EQ(w.rows_taken(), 1);
  w.clear();
  EXPECT_TRUE(std::isnan(w.take(7)[0]));
}

TEST(MeanWindow, TrailingWindowKeepsOnlyItsRows) {
  MeanWindow w(1, 100);
  for (int t = 0; t < 1000; ++t) w.add(t, {static_cast<double>(t)});
  EXPECT_LE(w.held_rows(), 101u);
  auto m = w.take(999);
  EXPECT_DOUBLE_EQ(m[0], (899 + 999) / 2.0);
  EXPECT_DOUBLE_EQ(w.take(999)[0], m[0]);  // a trailing window is not reset by a take
}

}  // namespace
}  // namespace cuprobe::test
