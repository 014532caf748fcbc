#include "inject/activity_buffer_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace cuprobe::inject {
namespace {

bool all_zero(const std::uint8_t* b, std::size_t n) {
  return std::all_of(b, b + n, [](std::uint8_t c) { return c == 0; });
}

TEST(ActivityBufferPool, BuffersComeZeroedAndAligned) {
  ActivityBufferPool pool(1 << 16, 4);
  std::uint8_t* b = pool.take();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b) % 8, 0u);
  EXPECT_TRUE(all_zero(b, 1 << 16));
  pool.give_back(b);
}

TEST(ActivityBufferPool, AReturnedBufferIsZeroedAndReused) {
  ActivityBufferPool pool(1 << 16, 4);
  std::uint8_t* b = pool.take();
  std::memset(b, 0xab, 1 << 16);  // CUPTI wrote all of it, valid size or not
  pool.give_back(b);
  EXPECT_EQ(pool.pooled(), 1u);
  std::uint8_t* again = pool.take();
  EXPECT_EQ(again, b);
  EXPECT_TRUE(all_zero(again, 1 << 16));
  EXPECT_EQ(pool.allocated(), 1u);
  pool.give_back(again);
}

TEST(ActivityBufferPool, KeepsAtMostItsLimitAndFillsAhead) {
  ActivityBufferPool pool(4096, 2);
  pool.fill(3);  // the third is freed at once
  EXPECT_EQ(pool.pooled(), 2u);
  std::uint8_t* a = pool.take();
  std::uint8_t* b = pool.take();
  std::uint8_t* c = pool.take();  // the pool is empty: a new one
  EXPECT_EQ(pool.pooled(), 0u);
  EXPECT_EQ(pool.allocated(), 4u);
  pool.give_back(a);
  pool.give_back(b);
  pool.give_back(c);
  EXPECT_EQ(pool.pooled(), 2u);
}

}  // namespace
}  // namespace cuprobe::inject
