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
