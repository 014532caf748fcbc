#include "common/percentile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace cuprobe {
namespace {

TEST(Percentile, MatchesNumpyLinearInterpolation) {
  // numpy.percentile([1..10], [0, 50, 90, 99, 100]) == [1, 5.5, 9.1, 9.91, 10]
  std::vector<double> v = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1);
  EXPECT_DOUBLE_EQ(percentile(v, 50), 5.5);
  EXPECT_NEAR(percentile(v, 90), 9.1, 1e-12);
  EXPECT_NEAR(percentile(v, 99), 9.91, 1e-12);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 10);
}

TEST(Percentile, QIsOnTheZeroToHundredScaleAndClamped) {
  std::vector<double> v = {0, 100};
  EXPECT_DOUBLE_EQ(percentile(v, 1), 1);  // 1 means p1, not p100
  EXPECT_DOUBLE_EQ(percentile(v, -5), 0);
  EXPECT_DOUBLE_EQ(percentile(v, 250), 100);
}

TEST(Percentile, EmptySetIsNaNAndOneValueIsItself) {
  EXPECT_TRUE(std::isnan(percentile({}, 50)));
  EXPECT_TRUE(std::isnan(percentile_sorted({}, 50)));
  EXPECT_DOUBLE_EQ(percentile({3}, 99), 3);
}

TEST(Percentile, RankSaysBetweenWhichValues) {
  PercentileRank r = percentile_rank(90, 10);  // 0.9 * 9 = 8.1
  EXPECT_EQ(r.lo, 8u);
  EXPECT_EQ(r.hi, 9u);
  EXPECT_NEAR(r.frac, 0.1, 1e-12);
  PercentileRank top = percentile_rank(100, 10);
  EXPECT_EQ(top.lo, 9u);
  EXPECT_EQ(top.hi, 9u);
  EXPECT_NEAR(interpolate(r, 9, 10), 9.1, 1e-12);
}

TEST(Percentile, LowerMedianIsAValueThatOccurred) {
  EXPECT_EQ(lower_median(std::vector<double>{4, 1, 3, 2}), 2.0);  // ranks 1 and 2: the lower, not 2.5
  EXPECT_EQ(lower_median(std::vector<long>{9, 7, 8}), 8);
  EXPECT_EQ(lower_median(std::vector<double>{}), 0.0);
}

}  // namespace
}  // namespace cuprobe
