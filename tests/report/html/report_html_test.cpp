#include "report/html/report_html.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "report/html/bench_view.h"
#include "report/html/html_assets.h"
#include "report/html/samples_view.h"
#include "report/html/step_timeline.h"

namespace cuprobe {
namespace {

TEST(ReportHtml, DataCannotCloseItsScriptElement) {
  nlohmann::ordered_json data = {{"name", "kernel</script><script>alert(1)</script><!--"}};
  std::string page = render_report_html(data, "t<i>tle");
  auto start = page.find("id=\"cuprobe-data\">");
  ASSERT_NE(start, std::string::npos);
  auto end = page.find("</script>", start);
  std::string blob = page.substr(start + 18, end - start - 18);
  EXPECT_EQ(blob.find("</"), std::string::npos) << blob;
  EXPECT_EQ(blob.find("<!"), std::string::npos) << blob;
  EXPECT_EQ(nlohmann::json::parse(blob)["name"], "kernel</script><script>alert(1)</script><!--");
  EXPECT_NE(page.find("<title>t&lt;i&gt;tle</title>"), std::string::npos);
}

TEST(ReportHtml, CarriesItsAssetsAndForbidsNetworkRequests) {
  std::string page = render_report_html(nlohmann::ordered_json::object(), "x");
  EXPECT_NE(page.find(std::string(kReportJs.substr(0, 200))), std::string::npos);
  EXPECT_NE(page.find(std::string(kReportCss.substr(0, 200))), std::string::npos);
  EXPECT_GT(kReportJs.size(), 10000u);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
}

TEST(ReportHtml, Round4KeepsFourSignificantDigits) {
  EXPECT_DOUBLE_EQ(round4(1.23456789), 1.235);
  EXPECT_DOUBLE_EQ(round4(123456.0), 123500.0);
  EXPECT_DOUBLE_EQ(round4(0.0), 0.0);
}

TEST(SamplesView, ReadsCsvAndJsonlAlike) {
  auto csv =
      samples_view("s.csv", "gpu,start_ns,end_ns,tensor_active_pct\n0,1000,2000,50\n0,3000,4000,\n0,5000,6000,7\n");
  ASSERT_EQ(csv["series"].size(), 1u);
  EXPECT_EQ(csv["series"][0]["values"], nlohmann::ordered_json({50, 7}));  // the empty field is no point, not 0
  auto jsonl = samples_view("s.jsonl",
                            "{\"gpu\":0,\"start_ns\":1000,\"end_ns\":2000,\"tensor_active_pct\":50}\n"
                            "{\"gpu\":0,\"start_ns\":5000,\"end_ns\":6000,\"tensor_active_pct\":7}\n");
  EXPECT_EQ(jsonl["series"][0]["values"], csv["series"][0]["values"]);
  EXPECT_EQ(jsonl["series"][0]["t_s"], csv["series"][0]["t_s"]);
}

TEST(SamplesView, BadLinesNameTheFileAndLine) {
  auto error_of = [](const std::string& text) {
    try {
      samples_view("s.csv", text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("gpu,start_ns,end_ns,x\n0,1,2,abc\n"), "s.csv: line 2: value 'abc' is not a number");
  EXPECT_EQ(error_of("gpu,start_ns,end_ns,x\n0,1,2\n"), "s.csv: line 2: 3 fields, the header has 4");
  EXPECT_NE(error_of("time,x\n").find("line 1: expected the header"), std::string::npos);
  EXPECT_NE(error_of("{\"gpu\":0}\n").find("line 1: not a sample line"), std::string::npos);
  EXPECT_EQ(error_of(""), "s.csv: empty: no header line");
}

// Issue 39: times and GPUs beyond the integer range are read through json_field (no undefined cast).
TEST(SamplesView, ExtremeJsonValuesAreNoUndefinedCast) {
  auto view = samples_view("s.jsonl",
                           "{\"gpu\":99999999999,\"start_ns\":1e300,\"end_ns\":-1e300,\"x\":1e308}\n"
                           "{\"gpu\":0,\"start_ns\":1000,\"end_ns\":2000,\"x\":5}\n");
  EXPECT_EQ(view["series"].size(), 2u);
}

TEST(BenchView, NeedsABenchResultAndJsonRequestLines) {
  EXPECT_THROW(bench_view("r.json", "{\"schema\":\"cuprobe.analyze/1\"}", "", std::nullopt), Error);
  EXPECT_THROW(bench_view("r.json", "not json", "", std::nullopt), Error);
  std::string result = R"({"schema":"cuprobe.bench/1","requests":{"completed":2},"all":{},"steady":{"valid":false}})";
  try {
    bench_view("r.json", result, "q.jsonl", std::string("{\"ok\":true}\nnope\n"));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "q.jsonl: line 2: not a JSON object (expected --save-requests lines)");
  }
  std::string lines =
      R"({"ok":true,"warmup":false,"send_ns":1000000000,"end_ns":1100000000,"completion_tokens":3,"content_ns":[1020000000,1050000000,1100000000]})"
      "\n";
  auto v = bench_view("r.json", result, "q.jsonl", lines);
  EXPECT_EQ(v["requests"]["ttft_ms"], nlohmann::ordered_json({20}));
  EXPECT_EQ(v["requests"]["itl_ms"], nlohmann::ordered_json({30, 50}));
  EXPECT_EQ(v["requests"]["tpot_ms"], nlohmann::ordered_json({40}));
  EXPECT_EQ(v["requests"]["e2e_ms"], nlohmann::ordered_json({100}));
}

}  // namespace
}  // namespace cuprobe
