#include "collect/counters/counter_image_cursor.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

struct Expected {
  std::size_t begin, end, dropped;
  bool reset;
};

void expect_step(const CounterImageCursor::Step& s, Expected e) {
  EXPECT_EQ(s.begin, e.begin);
  EXPECT_EQ(s.end, e.end);
  EXPECT_EQ(s.dropped_partials, e.dropped);
  EXPECT_EQ(s.reset, e.reset);
}

TEST(CounterImageCursor, EvaluatesEachCompletedSampleOnceAndKeepsTheImage) {
  CounterImageCursor c;
  expect_step(c.after_decode(1, 0, false), {0, 0, 0, false});  // one sample arriving
  expect_step(c.after_decode(3, 2, false), {0, 2, 0, false});
  expect_step(c.after_decode(3, 2, false), {2, 2, 0, false});  // nothing new
  expect_step(c.after_decode(4, 4, false), {2, 4, 0, false});
}

TEST(CounterImageCursor, AFullImageIsResetAndNothingIsLostWhenNoSampleWasInFlight) {
  CounterImageCursor c;
  expect_step(c.after_decode(2, 2, false), {0, 2, 0, false});
  expect_step(c.after_decode(4, 4, true), {2, 4, 0, true});
  expect_step(c.after_decode(1, 1, false), {0, 1, 0, false});
}

TEST(CounterImageCursor, TheTailOfASampleCutByAResetIsDroppedAndCounted) {
  CounterImageCursor c;
  expect_step(c.after_decode(4, 3, true), {0, 3, 0, true});    // sample 3 still arriving
  expect_step(c.after_decode(1, 0, false), {0, 0, 0, false});  // its tail, still arriving
  expect_step(c.after_decode(2, 1, false), {1, 1, 1, false});  // tail complete: skipped
  expect_step(c.after_decode(3, 3, false), {1, 3, 0, false});
}

TEST(CounterImageCursor, ATailStillArrivingAtTheNextResetIsCountedOnce) {
  CounterImageCursor c;
  expect_step(c.after_decode(1, 0, true), {0, 0, 0, true});
  expect_step(c.after_decode(1, 0, true), {0, 0, 0, true});  // a one-sample image, the tail still arriving
  expect_step(c.after_decode(1, 1, false), {1, 1, 1, false});
  expect_step(c.after_decode(2, 2, false), {1, 2, 0, false});
}

TEST(CounterImageCursor, ARestartForgetsAPendingTail) {
  CounterImageCursor c;
  c.after_decode(2, 1, true);
  c.restart();
  expect_step(c.after_decode(1, 1, false), {0, 1, 0, false});
}

TEST(CounterImageCursor, MoreCompletedThanPopulatedIsClamped) {
  CounterImageCursor c;
  expect_step(c.after_decode(2, 5, false), {0, 2, 0, false});
}

}  // namespace
}  // namespace cuprobe
