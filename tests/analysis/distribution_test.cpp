// describe(): the same percentiles as common/percentile.h, found by selection.
#include "analysis/distribution.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "common/percentile.h"

namespace cuprobe {
namespace {

TEST(Distribution, MatchesSortedPercentilesAndPopulationStd) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1000);
  for (std::size_t n : {1u, 2u, 3u, 10u, 101u, 1000u}) {
    std::vector<double> v(n);
    for (double& x : v) x = std::round(u(rng));
    std::vector<double> copy = v;
    Distribution d = describe(copy);
    EXPECT_EQ(d.count, static_cast<std::int64_t>(n));
    EXPECT_DOUBLE_EQ(d.median, percentile(v, 50)) << n;
    EXPECT_DOUBLE_EQ(d.p90, percentile(v, 90)) << n;
    EXPECT_DOUBLE_EQ(d.min, percentile(v, 0));
    EXPECT_DOUBLE_EQ(d.max, percentile(v, 100));
    double mean = 0, sq = 0;
    for (double x : v) mean += x / static_cast<double>(n);
    for (double x : v) sq += (x - mean) * (x - mean);
    EXPECT_NEAR(d.std, std::sqrt(sq / static_cast<double>(n)), 1e-9);
  }
  std::vector<double> none;
  EXPECT_EQ(describe(none).count, 0);
}

TEST(Distribution, GroupedValuesKeepEachGroupTogether) {
  GroupedValues g(3);
  for (std::size_t k : {2u, 0u, 2u, 2u}) g.count(k);
  g.place_all();
  g.put(2, 1);
  g.put(0, 5);
  g.put(2, 3);
  g.put(2, 2);
  EXPECT_EQ(g.group(0).size(), 1u);
  EXPECT_EQ(g.group(1).size(), 0u);
  ASSERT_EQ(g.group(2).size(), 3u);
  EXPECT_EQ(describe(g.group(2)).median, 2);
}

}  // namespace
}  // namespace cuprobe
