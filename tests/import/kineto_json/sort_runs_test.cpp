// stable_sort_by_start: the order std::stable_sort gives, for inputs of few and of many sorted runs.
#include "import/kineto_json/sort_runs.h"

#include <gtest/gtest.h>

#include <random>

namespace cuprobe {
namespace {

struct Item {
  long start;
  int id;  // the input position: ties must keep it increasing
};

std::vector<Item> runs_of(std::mt19937& rng, std::size_t runs, std::size_t size) {
  std::vector<Item> v;
  for (std::size_t r = 0; r < runs; ++r) {
    long t = static_cast<long>(rng() % 50);
    for (std::size_t i = 0; i < size; ++i) {
      t += static_cast<long>(rng() % 3);  // equal starts within and across runs
      v.push_back({t, static_cast<int>(v.size())});
    }
  }
  return v;
}

void expect_as_stable_sort(std::vector<Item> v) {
  std::vector<Item> expected = v;
  std::stable_sort(expected.begin(), expected.end(), [](const Item& a, const Item& b) { return a.start < b.start; });
  stable_sort_by_start(v);
  ASSERT_EQ(v.size(), expected.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_EQ(v[i].start, expected[i].start) << i;
    ASSERT_EQ(v[i].id, expected[i].id) << i;
  }
}

TEST(SortRuns, FewOrManyRunsGiveStableSortsOrder) {
  std::mt19937 rng(12);
  for (std::size_t runs : {1u, 2u, 3u, 7u, 64u, 65u, 300u}) {
    for (std::size_t size : {0u, 1u, 5u, 40u}) expect_as_stable_sort(runs_of(rng, runs, size));
  }
}

TEST(SortRuns, SortsAProfileAsSortByTimeDoes) {
  Profile a, b;
  for (long t : {5L, 1L, 3L, 3L, 0L}) a.cpu.push_back(CpuRange{.start = t, .end = t + 1});
  a.cpu[2].tid = 7;  // which of the equal starts comes first
  b.cpu = a.cpu;
  a.sort_by_time();
  sort_nearly_sorted_by_time(b);
  for (std::size_t i = 0; i < a.cpu.size(); ++i) {
    EXPECT_EQ(a.cpu[i].start, b.cpu[i].start);
    EXPECT_EQ(a.cpu[i].tid, b.cpu[i].tid);
  }
}

}  // namespace
}  // namespace cuprobe
