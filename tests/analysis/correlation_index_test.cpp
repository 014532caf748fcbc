// CorrelationIndex: the same answers in its dense (table) and sparse (sorted) forms.
#include "analysis/correlation_index.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

namespace cuprobe {
namespace {

void expect_slots(const CorrelationIndex& index, const std::set<std::int64_t>& ids,
                  std::initializer_list<std::int64_t> absent) {
  ASSERT_EQ(index.size(), ids.size());
  std::set<std::int32_t> slots;
  for (std::int64_t id : ids) {
    std::int32_t s = index.slot(id);
    EXPECT_GE(s, 0) << id;
    EXPECT_LT(s, static_cast<std::int32_t>(ids.size())) << id;
    slots.insert(s);
  }
  EXPECT_EQ(slots.size(), ids.size());  // one slot each
  for (std::int64_t id : absent) EXPECT_EQ(index.slot(id), -1) << id;
}

TEST(CorrelationIndex, DenseIdsRepeatsAndAbsentOnes) {
  CorrelationIndex index({7, 3, 5, 3, 9});
  expect_slots(index, {3, 5, 7, 9}, {-1, 0, 2, 4, 6, 8, 10, INT64_MIN, INT64_MAX});
}

TEST(CorrelationIndex, SparseAndExtremeIds) {
  CorrelationIndex index({INT64_MAX, 1, INT64_MIN, 1 << 30});
  expect_slots(index, {INT64_MIN, 1, 1 << 30, INT64_MAX}, {0, 2, -1, INT64_MAX - 1, INT64_MIN + 1});
}

TEST(CorrelationIndex, SlotsAreRanksAcrossWords) {
  // Dense: every third id over a few 64-bit words, the slots counted across word boundaries.
  std::vector<std::int64_t> ids;
  for (std::int64_t id = 1000; id < 1400; id += 3) ids.push_back(id);
  CorrelationIndex index(ids);
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(index.slot(ids[i]), static_cast<std::int32_t>(i));
  EXPECT_EQ(index.slot(1001), -1);
  EXPECT_EQ(index.slot(999), -1);
  EXPECT_EQ(index.slot(1400), -1);
}

TEST(CorrelationIndex, EmptyHasNoSlots) {
  CorrelationIndex index;
  EXPECT_TRUE(index.empty());
  EXPECT_EQ(index.slot(0), -1);
}

}  // namespace
}  // namespace cuprobe
