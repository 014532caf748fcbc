#include "common/prometheus_text.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"

namespace cuprobe::test {
namespace {

TEST(PrometheusText, ReadsSamplesLabelsHelpAndTypes) {
  const char* page =
      "# HELP DCGM_FI_PROF_PIPE_TENSOR_ACTIVE Ratio of cycles the tensor (HMMA) pipe is active.\n"
      "# TYPE DCGM_FI_PROF_PIPE_TENSOR_ACTIVE gauge\n"
      "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"0\",UUID=\"GPU-1\",modelName=\"NVIDIA H200\",Hostname=\"n1\"} 0.931\n"
      "\n"
      "# a comment\n"
      "up 1 1700000000000\r\n"
      "weird{path=\"a\\\\b\",q=\"say \\\"hi\\\"\",nl=\"x\\ny\",} +Inf\n"
      "nan_metric NaN\n";
  PrometheusPage p = parse_prometheus_text(page, "page");
  ASSERT_EQ(p.samples.size(), 4u);
  EXPECT_EQ(p.types["DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"], "gauge");
  EXPECT_EQ(p.help["DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"], "Ratio of cycles the tensor (HMMA) pipe is active.");
  const auto& s = p.samples[0];
  EXPECT_DOUBLE_EQ(s.value, 0.931);
  ASSERT_NE(s.label("modelName"), nullptr);
  EXPECT_EQ(*s.label("modelName"), "NVIDIA H200");
  EXPECT_EQ(s.label("nope"), nullptr);
  EXPECT_EQ(p.samples[1].timestamp_ms, 1700000000000);
  EXPECT_EQ(*p.samples[2].label("path"), "a\\b");
  EXPECT_EQ(*p.samples[2].label("q"), "say \"hi\"");
  EXPECT_EQ(*p.samples[2].label("nl"), "x\ny");
  EXPECT_TRUE(std::isinf(p.samples[2].value));
  EXPECT_TRUE(std::isnan(p.samples[3].value));
}

TEST(PrometheusText, ReadsOpenMetrics) {
  PrometheusPage p = parse_prometheus_text(
      "# TYPE c counter\n# UNIT c bytes\n# HELP c x\nc_total{a=\"b\"} 3 1700000000.5\n# EOF\n", "om");
  ASSERT_EQ(p.samples.size(), 1u);
  EXPECT_EQ(p.samples[0].name, "c_total");
  EXPECT_EQ(p.samples[0].timestamp_ms, 1700000000500);
}

void expect_error(const std::string& text, const std::string& part) {
  try {
    parse_prometheus_text(text, "src");
    ADD_FAILURE() << "no error for: " << text;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(PrometheusText, MalformedLinesSayWhereAndWhy) {
  expect_error("ok 1\nbad{a=\"x} 1\n", "src: line 2: unterminated label value");
  expect_error("m{a=x} 1\n", "line 1: expected '\"' to open a label value");
  expect_error("m 12abc\n", "line 1: '12abc' is not a sample value");
  expect_error("m\n", "line 1: '' is not a sample value");
  expect_error("9m 1\n", "line 1: expected a metric or label name");
  expect_error("# TYPE m gauge\n# TYPE m counter\n", "line 2: a second TYPE line for m");
  expect_error("m 1 notatime\n", "'notatime' is not a timestamp");
  expect_error("m{a=\"1\" b=\"2\"} 1\n", "expected '}' or ','");
}

TEST(PrometheusText, EscapesLabelValues) {
  EXPECT_EQ(escape_prometheus_label("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  PrometheusPage p = parse_prometheus_text("m{v=\"" + escape_prometheus_label("a\\b\"c\nd") + "\"} 1\n", "x");
  EXPECT_EQ(*p.samples[0].label("v"), "a\\b\"c\nd");
}

}  // namespace
}  // namespace cuprobe::test
