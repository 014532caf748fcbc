// ReleaseBehind: the pages behind the point read through go back (they read as zeros), nothing ahead of it
// or on the array's first page is touched.
#include "import/kineto_json/release_behind.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

namespace cuprobe {
namespace {

TEST(ReleaseBehind, PagesBehindGoBackAndNothingAheadChanges) {
  const std::size_t n = std::size_t{6} << 20;  // 48 MiB of 8-byte values: past the batch the releases go in
  std::vector<std::uint64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i + 1;
  ReleaseBehind behind(v.data(), n * sizeof(std::uint64_t));
  const std::size_t half = n / 2;
  for (std::size_t i = 0; i < half; ++i) behind.read_up_to(&v[i] + 1);
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) / sizeof(std::uint64_t);
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < half; ++i) zeros += v[i] == 0 ? 1 : 0;
  EXPECT_GT(zeros, half / 2);  // most of what was read through went back
  const auto page_bytes = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  if (reinterpret_cast<std::uintptr_t>(v.data()) % page_bytes != 0) {
    EXPECT_EQ(v[0], 1u);  // the allocator's page stays
  }
  for (std::size_t i = half; i < n; ++i) ASSERT_EQ(v[i], i + 1) << i;
  for (std::size_t i = 0; i < half; ++i) ASSERT_TRUE(v[i] == 0 || v[i] == i + 1) << i;
  behind.read_up_to(v.data() + n);  // the end: every whole page in it
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) kept += v[i] != 0 ? 1 : 0;
  EXPECT_LT(kept, 2 * page);  // only the partial pages at both ends
}

}  // namespace
}  // namespace cuprobe
