// cuprobe report on the command line: inputs (files, directories), what it
// writes, and bad input as one line. The page itself is tested in a browser
// (tests/report/html/report_browser_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_cuprobe.h"

namespace cuprobe::test {
namespace {

nlohmann::json page_data(const std::string& page) {
  const std::string open = "id=\"cuprobe-data\">";
  auto at = page.find(open);
  if (at == std::string::npos) return {};
  auto end = page.find("</script>", at);
  return nlohmann::json::parse(page.substr(at + open.size(), end - at - open.size()));
}

TEST(ReportCli, ADirectoryStandsForItsTracesAsRanks) {
  std::string dir = temp_dir(), traces = dir + "/traces";
  std::filesystem::create_directories(traces);
  for (const char* name : {"tp2_mlp_decode_rank0.json.gz", "tp2_mlp_decode_rank1.json.gz"}) {
    std::filesystem::copy_file(data_path(name), traces + "/" + name);
  }
  std::ofstream(traces + "/notes.txt") << "not a trace";
  auto r = run_cuprobe({"report", traces, "-o", dir + "/r.html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());  // the page goes to the file
  auto data = page_data(slurp(dir + "/r.html"));
  EXPECT_EQ(data["schema"], "cuprobe.report/1");
  ASSERT_EQ(data["ranks"].size(), 2u);
  EXPECT_EQ(data["header"]["inputs"].size(), 2u);
  EXPECT_EQ(data["ranks"][0]["steps"]["count"], data["ranks"][0]["steps"]["step_ms"].size());
  EXPECT_FALSE(std::filesystem::exists(dir + "/r.html.partial"));
}

// The cross-rank table of analyze on the page of several ranks (docs/analyze-ranks.md): the same ranks and
// straggler as `analyze --json`, the calls cut to those the others waited on longest, the longest first.
TEST(ReportCli, SeveralRanksCarryTheCrossRankTable) {
  std::string dir = temp_dir();
  std::vector<std::string> traces{data_path("tp2_mlp_decode_rank0.json.gz"), data_path("tp2_mlp_decode_rank1.json.gz")};
  auto r = run_cuprobe({"report", traces[0], traces[1], "-o", dir + "/r.html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto c = page_data(slurp(dir + "/r.html"))["cross_rank"];
  auto a = run_cuprobe({"analyze", "--json", traces[0], traces[1]});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  auto want = nlohmann::json::parse(a.out)["cross_rank"];
  ASSERT_TRUE(c.is_object());
  EXPECT_EQ(c["ranks"], want["ranks"]);
  EXPECT_EQ(c["straggler"], want["straggler"]);
  EXPECT_EQ(c["straggler"]["rank"], 1);
  EXPECT_EQ(c["calls_total"], want["calls"].size());
  EXPECT_EQ(c["calls_total"], 64);
  ASSERT_EQ(c["calls"].size(), 50u);  // kReportMaxCollectiveCalls
  double max_wait = 0;
  for (const auto& call : want["calls"]) max_wait = std::max(max_wait, call["others_wait_ms"].get<double>());
  EXPECT_EQ(c["calls"][0]["others_wait_ms"].get<double>(), max_wait);
  for (std::size_t i = 1; i < c["calls"].size(); ++i) {
    EXPECT_GE(c["calls"][i - 1]["others_wait_ms"].get<double>(), c["calls"][i]["others_wait_ms"].get<double>());
  }
  // One rank: no cross-rank table.
  auto one = run_cuprobe({"report", traces[0], "-o", dir + "/one.html"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(page_data(slurp(dir + "/one.html"))["cross_rank"].is_null());
}

TEST(ReportCli, BaselineWithOtherRankCountIsNotedOnThePage) {
  std::string dir = temp_dir();
  auto r = run_cuprobe({"report", data_path("tp2_mlp_decode_rank0.json.gz"), "-o", dir + "/r.html", "--baseline",
                        data_path("tp2_mlp_decode_rank0.json.gz") + "," + data_path("tp2_mlp_decode_rank1.json.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto data = page_data(slurp(dir + "/r.html"));
  EXPECT_EQ(data["baseline"]["a_files"].size(), 2u);
  EXPECT_NE(data["baseline"]["rank_note"].get<std::string>().find("2 rank(s)"), std::string::npos);
  EXPECT_NE(r.err.find("warning"), std::string::npos);
}

// The page says "`--hta-window all` keeps it" under HTA's default window: report takes that flag, as analyze does.
TEST(ReportCli, HtaWindowFlagAsAnalyzes) {
  std::string dir = temp_dir(), trace = data_path("format_pipeline_two_gpus.json");  // ProfilerStep#1..#4
  ASSERT_EQ(run_cuprobe({"report", trace, "-o", dir + "/d.html"}).exit_code, 0);
  auto r = run_cuprobe({"report", trace, "--hta-window", "all", "-o", dir + "/a.html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto def = page_data(slurp(dir + "/d.html"))["ranks"][0]["hta_window"];
  auto all = page_data(slurp(dir + "/a.html"))["ranks"][0]["hta_window"];
  EXPECT_TRUE(def["last_step_left_out"].get<bool>()) << def;
  EXPECT_EQ(def["last_step"], "ProfilerStep#4");
  EXPECT_EQ(all["window"], "all");
  EXPECT_FALSE(all["last_step_left_out"].get<bool>());
  auto analyzed = nlohmann::json::parse(run_cuprobe({"analyze", "--json", "--hta-window", "all", trace}).out);
  EXPECT_EQ(page_data(slurp(dir + "/a.html"))["ranks"][0]["launch_stats"], analyzed["ranks"][0]["launch_stats"]);
  EXPECT_EQ(run_cuprobe({"report", trace, "--hta-window", "last", "-o", dir + "/x.html"}).exit_code, 2);
}

TEST(ReportCli, BadInputIsOneLineAndNoPage) {
  std::string dir = temp_dir();
  std::filesystem::create_directories(dir + "/empty");
  std::ofstream(dir + "/bench.json") << R"({"schema":"cuprobe.analyze/1"})";
  std::ofstream(dir + "/samples.csv") << "gpu,start_ns,end_ns,x\n0,1,2,nan?\n";
  std::string trace = data_path("mla_fp8pool_fullcast_small.json.gz");
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string says;
  };
  for (const auto& c : std::vector<Case>{
           {{dir + "/missing.json"}, 1, "missing.json"},
           {{dir + "/empty"}, 1, "no trace"},
           {{trace, "--bench", dir + "/bench.json"}, 1, "cuprobe.bench/1"},
           {{trace, "--bench", dir + "/nope.json"}, 1, "nope.json: cannot open"},
           {{trace, "--samples", dir + "/samples.csv"}, 1, "samples.csv: line 2"},
           {{trace, "--requests", dir + "/q.jsonl"}, 2, "--bench"},
           {{trace}, 2, "--output"},
       }) {
    std::vector<std::string> args{"report"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    if (c.says != "--output") args.insert(args.end(), {"-o", dir + "/r.html"});
    auto r = run_cuprobe(args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.says << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/r.html")) << c.says;
  }
}

}  // namespace
}  // namespace cuprobe::test
