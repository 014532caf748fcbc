// Copies by direction and memsets (nsys cuda_gpu_mem_time_sum / _size_sum).
#include "analysis/copy_summary.h"

#include <gtest/gtest.h>

#include "launched_profile.h"

namespace cuprobe {
namespace {

TEST(CopySummary, CountBytesTimeAndRate) {
  test::LaunchedProfile t;
  auto copy = [&](GpuActivityKind kind, MemcpyKind direction, TimeNs start, TimeNs ns, std::int64_t bytes) {
    t.activity("x", start, start + ns);
    t.p.gpu.back().kind = kind;
    t.p.gpu.back().memcpy_kind = direction;
    t.p.gpu.back().bytes = bytes;
  };
  copy(GpuActivityKind::kMemcpy, MemcpyKind::kHtoD, 0, 1'000, 4'000);   // 4 GB/s
  copy(GpuActivityKind::kMemcpy, MemcpyKind::kHtoD, 2'000, 1'000, -1);  // size unknown
  copy(GpuActivityKind::kMemcpy, MemcpyKind::kDtoD, 4'000, 4'000, 8'000);
  copy(GpuActivityKind::kMemset, MemcpyKind::kUnknown, 9'000, 100, 64);
  t.activity("kernel", 10'000, 20'000);
  auto rows = copy_summary(t.sorted());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].kind, "DtoD");
  EXPECT_DOUBLE_EQ(rows[0].gbps, 2);
  EXPECT_EQ(rows[1].kind, "HtoD");
  EXPECT_EQ(rows[1].count, 2);
  EXPECT_EQ(rows[1].sized, 1);
  EXPECT_EQ(rows[1].bytes, 4'000);
  EXPECT_DOUBLE_EQ(rows[1].time_ms, 2e-3);
  EXPECT_DOUBLE_EQ(rows[1].gbps, 4);  // over the sized copy's time only
  EXPECT_EQ(rows[2].kind, "memset");
}

}  // namespace
}  // namespace cuprobe
