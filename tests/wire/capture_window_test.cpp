#include "wire/capture_window.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(CaptureWindow, AlwaysKeepsEverything) {
  CaptureWindow w(true);
  EXPECT_TRUE(w.contains(-5));
  w.close(10);
  EXPECT_TRUE(w.contains(20));
}

TEST(CaptureWindow, JudgesRecordsByTheirOwnTime) {
  CaptureWindow w(false);
  EXPECT_FALSE(w.is_open());
  EXPECT_FALSE(w.contains(5));
  w.open(10);
  w.close(20);
  w.open(30);
  EXPECT_FALSE(w.contains(9));
  EXPECT_TRUE(w.contains(10));
  EXPECT_TRUE(w.contains(19));
  EXPECT_FALSE(w.contains(20));
  EXPECT_FALSE(w.contains(25));
  EXPECT_TRUE(w.contains(1000));
  w.close(40);
  EXPECT_FALSE(w.contains(1000));
  EXPECT_EQ(w.closed_intervals().size(), 2u);
}

TEST(CaptureWindow, ManyWindowsEachJudgedByItsOwnBounds) {
  CaptureWindow w(false);
  for (std::int64_t t = 0; t < 100000; t += 100) {  // on for [t, t+50), off for [t+50, t+100)
    w.open(t);
    w.close(t + 50);
  }
  EXPECT_EQ(w.closed_intervals().size(), 1000u);
  for (std::int64_t t = -10; t < 100100; t += 7) {
    EXPECT_EQ(w.contains(t), t >= 0 && t < 100000 && t % 100 < 50) << t;
  }
}

}  // namespace
}  // namespace cuprobe
