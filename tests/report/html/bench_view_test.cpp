// report --bench on hostile or truncated bench results (issue 39 item 5): every key read through
// json_field, so a missing key or another type is no crash (a const operator[] on a missing key was a
// heap-use-after-free under ASan), and times from the file cannot overflow.
#include "report/html/bench_view.h"

#include <gtest/gtest.h>

#include "report/html/report_headline.h"
#include "report/json_field.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

TEST(JsonField, MissingKeysAndOtherTypesGiveTheFallback) {
  json j =
      json::parse(R"({"n": 3, "f": 2.5, "s": "x", "b": true, "big": 1e300, "neg": -1, "u": 18446744073709551615})");
  EXPECT_EQ(json_get(j, "n", 0), 3);
  EXPECT_EQ(json_get(j, "missing", 7), 7);
  EXPECT_EQ(json_get(j, "s", 7), 7);
  EXPECT_EQ(json_get(j, "f", std::int64_t{0}), 2);
  EXPECT_EQ(json_get(j, "big", std::int64_t{-5}), -5);  // beyond int64: not cast
  EXPECT_EQ(json_get(j, "u", std::int64_t{-5}), -5);
  EXPECT_EQ(json_get(j, "neg", std::uint32_t{9}), 9u);
  EXPECT_EQ(json_get(j, "s", std::string()), "x");
  EXPECT_EQ(json_get(j, "n", std::string("d")), "d");
  EXPECT_TRUE(json_get(j, "b", false));
  EXPECT_TRUE(json_at(json_at(j, "n"), "x").is_null());  // a number has no members
  EXPECT_TRUE(json_at(json::array(), "x").is_null());
}

TEST(BenchView, TruncatedOrHostileResultsMakeAPageNotACrash) {
  const std::string requests =
      R"({"ok": true, "send_ns": -9223372036854775807, "end_ns": 9223372036854775807, "content_ns": [0, "x", 5]})"
      "\n"
      R"({"ok": "yes", "send_ns": "1"})"
      "\n"
      R"({"ok": true, "send_ns": 1, "end_ns": 2, "completion_tokens": "many", "content_ns": 7})"
      "\n";
  for (const char* result : {
           R"({"schema": "cuprobe.bench/1"})",
           R"({"schema": "cuprobe.bench/1", "steady": {"start_ns": 5}, "run": {"start_ns": "x"}})",
           R"({"schema": "cuprobe.bench/1", "steady": {"duration_s": "long", "start_ns": 1e300, "ttft_ms": 3},
               "all": [], "run": 7})",
           R"({"schema": "cuprobe.bench/1", "steady": [1], "all": {"ttft_ms": {"count": "n", "p50": 1}}})",
       }) {
    json view = bench_view("r.json", result, "q.jsonl", requests);
    json headline = report_headline(nullptr, view);
    EXPECT_TRUE(headline.is_object()) << result;
    EXPECT_LE(view["requests"]["t_s"].size(), 202u) << result;  // ~100 bins whatever the claimed span
  }
}

}  // namespace
}  // namespace cuprobe
