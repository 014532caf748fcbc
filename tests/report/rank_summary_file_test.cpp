// Issue 39 items 5 and 7: a summary file (analyze --summary) is read through the
// checked accessor: whatever is missing, of another type or out of range gives
// one InputError naming the file and the key, never the JSON library's words.
#include "report/rank_summary_file.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "import/temp_dir.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

using ojson = nlohmann::ordered_json;

RankSummary one_rank() {
  RankSummary s;
  s.rank = 1;
  s.file = "rank1.json";
  s.keys.push_back({"ncclAllReduce", 0, "pg 1 (tp) ranks [0, 1]"});
  s.calls.push_back({0, 100, 200, 0});
  s.step_starts = {10, 20};
  s.step_ms = 1.5;
  s.window_ms = 3;
  s.before.kernel_ms.emplace_back("gemm", 0.5);
  return s;
}

std::string write(const TempDir& dir, const std::string& text) {
  std::string path = dir.path() + "/summary.json";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The message read_rank_summary_file gives for the valid file changed by `change`.
std::string error_for(const std::function<void(ojson&)>& change) {
  ojson j = ojson::parse(rank_summary_file({one_rank()}));
  change(j);
  TempDir dir;
  std::string path = write(dir, j.dump());
  try {
    read_rank_summary_file(path);
  } catch (const InputError& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
    EXPECT_EQ(what.find("json.exception"), std::string::npos) << what;
    return what.substr(path.size() + 2);
  }
  ADD_FAILURE() << "no error for " << j.dump();
  return "";
}

TEST(RankSummaryFile, RoundTrip) {
  TempDir dir;
  auto ranks = read_rank_summary_file(write(dir, rank_summary_file({one_rank()})));
  ASSERT_EQ(ranks.size(), 1u);
  EXPECT_EQ(ranks[0].rank, 1);
  EXPECT_EQ(ranks[0].file, "rank1.json");
  EXPECT_EQ(ranks[0].calls.size(), 1u);
  EXPECT_EQ(ranks[0].before.kernel_ms.size(), 1u);
  ASSERT_EQ(ranks[0].keys.size(), 1u);
  EXPECT_EQ(ranks[0].keys[0], one_rank().keys[0]);  // the communicator kept
}

// A version 1 file (before keys named their communicator) is still read: its calls are matched by stream order.
TEST(RankSummaryFile, VersionOneIsReadWithoutCommunicators) {
  ojson j = ojson::parse(rank_summary_file({one_rank()}));
  j["schema"] = "cuprobe.rank-summary/1";
  j["ranks"][0]["collective_keys"][0].erase("communicator");
  TempDir dir;
  std::string path = write(dir, j.dump());
  EXPECT_TRUE(is_rank_summary_file(path));
  auto ranks = read_rank_summary_file(path);
  ASSERT_EQ(ranks.size(), 1u);
  ASSERT_EQ(ranks[0].keys.size(), 1u);
  EXPECT_EQ(ranks[0].keys[0].name, "ncclAllReduce");
  EXPECT_EQ(ranks[0].keys[0].communicator, "");
}

// A version this build does not know is one line naming it, through the verb too.
TEST(RankSummaryFile, UnknownVersionIsNamed) {
  EXPECT_EQ(error_for([](ojson& j) { j["schema"] = "cuprobe.rank-summary/3"; }),
            "not a cuprobe.rank-summary/2 (or /1) file: schema \"cuprobe.rank-summary/3\"");
  ojson j = ojson::parse(rank_summary_file({one_rank()}));
  j["schema"] = "cuprobe.rank-summary/3";
  TempDir dir;
  std::string path = write(dir, j.dump());
  auto r = test::run_cuprobe({"analyze", path});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "cuprobe analyze: " + path +
                       ": not a cuprobe.rank-summary/2 (or /1) file: schema \"cuprobe.rank-summary/3\"\n");
}

TEST(RankSummaryFile, HostileValuesNameTheKey) {
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0].erase("step_ms"); }), "ranks[0].step_ms: missing");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["file"] = 7; }), "ranks[0].file: expected a string, found a number");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["rank"] = 1e30; }),
            "ranks[0].rank: expected a whole number in range, found a number");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["step_starts_ns"] = "x"; }),
            "ranks[0].step_starts_ns: expected a list, found a string");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["step_starts_ns"][1] = nullptr; }),
            "ranks[0].step_starts_ns[1]: expected a whole number in range, found null");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["collective_keys"][0].erase("name"); }),
            "ranks[0].collective_keys[0].name: missing");
  EXPECT_EQ(error_for([](ojson& j) {
              j["ranks"][0]["collective_calls"][0] = {0, 1};
            }),
            "ranks[0].collective_calls[0]: expected a list [key, start_ns, end_ns]");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["collective_calls"][0][0] = -1; }),
            "ranks[0].collective_calls[0][0]: expected a whole number, not negative, in range, found a number");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["collective_calls"][0][0] = 5; }),
            "ranks[0].collective_calls[0]: names collective key 5, but the file lists 1");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["before_arrival"] = 1; }),
            "ranks[0].before_arrival: expected an object, found a number");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["before_arrival"]["kernel_ms"][0] = "gemm"; }),
            "ranks[0].before_arrival.kernel_ms[0]: expected a list [name, ms]");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["before_arrival"].erase("span_ms"); }),
            "ranks[0].before_arrival.span_ms: missing");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"] = ojson::object(); }), "ranks: expected a list, found an object");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0] = 3; }), "ranks[0].file: missing");
  EXPECT_EQ(error_for([](ojson& j) { j["schema"] = "other"; }),
            "not a cuprobe.rank-summary/2 (or /1) file: schema \"other\"");
  EXPECT_EQ(error_for([](ojson& j) { j["ranks"][0]["collective_keys"][0].erase("communicator"); }),
            "ranks[0].collective_keys[0].communicator: missing");
}

TEST(RankSummaryFile, DamagedJsonInOurWords) {
  TempDir dir;
  std::string path = write(dir, "{\"schema\":\"cuprobe.rank-summary/2\",\"ranks\":[{\"file\":");
  try {
    read_rank_summary_file(path);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).find("json.exception"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path + ": a damaged summary file: the JSON ends early at byte"),
              std::string::npos)
        << e.what();
  }
}

// The verb: one line naming the file and the key, exit 1.
TEST(RankSummaryFile, AnalyzeOfAHostileSummaryIsOneLine) {
  ojson j = ojson::parse(rank_summary_file({one_rank()}));
  j["ranks"][0]["window_ms"] = "soon";
  TempDir dir;
  std::string path = write(dir, j.dump());
  auto r = test::run_cuprobe({"analyze", path});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "cuprobe analyze: " + path + ": ranks[0].window_ms: expected a number, found a string\n");
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace cuprobe
