#include "model/kinds.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

// Names are what run files, traces and `record --kinds` carry: changing one breaks old files.
TEST(Kinds, NamesAreTheOnesFilesCarry) {
  EXPECT_EQ(name_of(MemcpyKind::kHtoD), "HtoD");
  EXPECT_EQ(name_of(MemcpyKind::kPtoP), "PtoP");
  EXPECT_EQ(name_of(MemcpyKind::kUnknown), "unknown");
  EXPECT_EQ(name_of(RangeKind::kNvtx), "nvtx");
  EXPECT_EQ(name_of(RangeKind::kRuntimeApi), "runtime");
  EXPECT_EQ(name_of(RangeKind::kDriverApi), "driver");
  EXPECT_EQ(name_of(ActivityKind::kMemset), "memset");
}

// Values are what the record wire carries: append only.
TEST(Kinds, ValuesAreTheOnesTheWireCarries) {
  static_assert(static_cast<int>(MemcpyKind::kDtoD) == 3);
  static_assert(static_cast<int>(RangeKind::kDriverApi) == 2);
  EXPECT_EQ(name_of_value<MemcpyKind>(5), "PtoP");
  EXPECT_EQ(name_of_value<MemcpyKind>(6), "");
  EXPECT_EQ(name_of_value<RangeKind>(99), "");
}

TEST(Kinds, EveryNameReadsBackToItsEnumerator) {
  for (std::size_t i = 0; i < enum_count<MemcpyKind>(); ++i) {
    EXPECT_EQ(from_name<MemcpyKind>(name_of(enum_at<MemcpyKind>(i))), enum_at<MemcpyKind>(i));
  }
  for (std::size_t i = 0; i < enum_count<ActivityKind>(); ++i) {
    EXPECT_EQ(from_name<ActivityKind>(name_of(enum_at<ActivityKind>(i))), enum_at<ActivityKind>(i));
  }
  EXPECT_FALSE(from_name<RangeKind>("NVTX"));
  EXPECT_FALSE(from_name<ActivityKind>(""));
  static_assert(from_name<RangeKind>("driver") == RangeKind::kDriverApi);
}

}  // namespace
}  // namespace cuprobe
