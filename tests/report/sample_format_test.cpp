#include "report/sample_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace cuprobe::test {
namespace {

CounterRow row() {
  CounterRow r;
  r.gpu = 1;
  r.start_ns = 1796038245962090234;
  r.end_ns = 1796038246012089883;
  r.values = {93.25, std::nan(""), 2.1e12};
  return r;
}

TEST(SampleFormat, CsvHeaderAndLineWithEmptyFieldForUnread) {
  SampleLineWriter w(SampleFormat::kCsv, {"tensor_active_pct", "fma_pct", "dram_read_bytes_per_s"});
  EXPECT_EQ(w.header(), "gpu,start_ns,end_ns,tensor_active_pct,fma_pct,dram_read_bytes_per_s\n");
  EXPECT_EQ(w.line(row()), "1,1796038245962090234,1796038246012089883,93.25,,2.1e+12\n");
}

TEST(SampleFormat, JsonlIsOneObjectPerLineWithNullForUnread) {
  SampleLineWriter w(SampleFormat::kJsonl, {"tensor_active_pct", "fma_pct", "dram_read_bytes_per_s"});
  EXPECT_EQ(w.header(), "");
  std::string line = w.line(row());
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["gpu"], 1);
  EXPECT_EQ(j["start_ns"].get<std::int64_t>(), 1796038245962090234);
  EXPECT_EQ(j["tensor_active_pct"], 93.25);
  EXPECT_TRUE(j["fma_pct"].is_null());
  EXPECT_EQ(j["dram_read_bytes_per_s"], 2.1e12);
  // Key order is the column order.
  EXPECT_LT(line.find("\"gpu\""), line.find("\"end_ns\""));
  EXPECT_LT(line.find("\"tensor_active_pct\""), line.find("\"fma_pct\""));
}

TEST(SampleFormat, MissingValuesAreNeverZero) {
  CounterRow r = row();
  r.values.resize(1);  // fewer values than columns
  SampleLineWriter csv(SampleFormat::kCsv, {"a", "b"});
  EXPECT_EQ(csv.line(r), "1,1796038245962090234,1796038246012089883,93.25,\n");
  SampleLineWriter jsonl(SampleFormat::kJsonl, {"a", "b"});
  EXPECT_TRUE(nlohmann::json::parse(jsonl.line(r))["b"].is_null());
}

TEST(SampleFormat, ValuesRoundTripAndNonFiniteIsEmpty) {
  for (double v : {0.0, 0.011963842348648243, 93.4, 1e-300, 2.5e15}) {
    EXPECT_EQ(std::stod(format_sample_value(v)), v);
  }
  EXPECT_EQ(format_sample_value(std::numeric_limits<double>::infinity()), "");
  EXPECT_EQ(format_sample_value(std::nan("")), "");
}

TEST(SampleFormat, ParseFormat) {
  EXPECT_EQ(parse_sample_format("csv"), SampleFormat::kCsv);
  EXPECT_EQ(parse_sample_format("jsonl"), SampleFormat::kJsonl);
  EXPECT_THROW(parse_sample_format("JSON"), Error);
  EXPECT_THROW(parse_sample_format(""), Error);
}

}  // namespace
}  // namespace cuprobe::test
