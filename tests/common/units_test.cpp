#include "common/units.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"

namespace cuprobe {
namespace {

TEST(ParseDuration, AcceptsUnits) {
  EXPECT_EQ(parse_duration("500ms").count(), 500'000'000);
  EXPECT_EQ(parse_duration("10s").count(), 10'000'000'000);
  EXPECT_EQ(parse_duration("2m").count(), 120'000'000'000);
  EXPECT_EQ(parse_duration("1.5s").count(), 1'500'000'000);
  EXPECT_EQ(parse_duration("250us").count(), 250'000);
  EXPECT_EQ(parse_duration("3").count(), 3'000'000'000);
}

TEST(ParseDuration, RejectsGarbageWithUsageExit) {
  for (const char* bad : {"", "ms", "10x", "-5s", "1e99h", "abc"}) {
    try {
      parse_duration(bad);
      FAIL() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), kExitUsage) << bad;
    }
  }
}

TEST(ParseSize, AcceptsUnits) {
  EXPECT_EQ(parse_size("64MiB"), 64ull << 20);
  EXPECT_EQ(parse_size("1GB"), 1'000'000'000ull);
  EXPECT_EQ(parse_size("4096"), 4096ull);
  EXPECT_THROW(parse_size("12 bytes"), Error);
}

TEST(FormatDuration, PicksReadableUnits) {
  EXPECT_EQ(format_duration_ms(1.56), "1.56 ms");
  EXPECT_EQ(format_duration_ms(86.04), "86.0 ms");
  EXPECT_EQ(format_duration_ms(0.016), "16.0 us");
}

TEST(FormatMetricValue, ByTheMetricsName) {
  EXPECT_EQ(format_metric_value(2.1e12, "dram_read_bytes_per_s"), "2.1 TB/s");
  EXPECT_EQ(format_metric_value(2147483648.0, "memory_used_bytes"), "2048 MiB");
  EXPECT_EQ(format_metric_value(93.12, "tensor_active_pct"), "93.1");
  EXPECT_EQ(format_metric_value(2, "clock_event_reasons"), "-");
  EXPECT_EQ(format_metric_value(NAN, "power_w"), "-");
}

}  // namespace
}  // namespace cuprobe
