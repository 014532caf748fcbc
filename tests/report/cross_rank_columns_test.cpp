// The cross-rank tables from one column list each: ranks.csv and collectives.csv
// keep their older orders, the JSON its own, and the text table its own columns
// and order (text_at).
#include "report/cross_rank_columns.h"

#include <gtest/gtest.h>

#include "report/cross_rank_text.h"

namespace cuprobe {
namespace {

using Strings = std::vector<std::string>;

Strings keys(const nlohmann::ordered_json& j) {
  Strings out;
  for (const auto& [k, v] : j.items()) out.push_back(k);
  return out;
}

TEST(CrossRankColumns, RanksKeepTheirCsvJsonAndTextOrders) {
  CrossRankRow r;
  r.file = "rank1.json.gz";
  r.steps = 8;
  r.clock_offset_ms = 2.748;
  r.clock_residual_us = 0.14;
  CrossRankTableRow row{r, 1};  // the trace names no rank: null, empty, its position in the text
  EXPECT_EQ(csv_header(cross_rank_columns(), {}),
            (Strings{"rank", "file", "step_ms", "steps", "busy_share", "communication_share", "wait_ms", "wait_share",
                     "clock_offset_ms", "clock_residual_us", "last_arrivals", "late_ms", "clock_aligned"}));
  Strings csv = csv_row(cross_rank_columns(), row, {});
  EXPECT_EQ(csv.front(), "");
  EXPECT_EQ(csv.back(), "false");
  nlohmann::ordered_json j = json_row(cross_rank_columns(), row);
  EXPECT_EQ(keys(j),
            (Strings{"rank", "file", "step_ms", "steps", "busy_share", "communication_share", "wait_ms", "wait_share",
                     "clock_offset_ms", "clock_residual_us", "clock_aligned", "last_arrivals", "late_ms"}));
  EXPECT_TRUE(j["rank"].is_null());
  EXPECT_EQ(j["clock_aligned"], false);
  EXPECT_EQ(text_headers(cross_rank_columns()),
            (Strings{"rank", ">step", ">steps", ">busy", ">comm", ">wait", ">clock offset", ">residual", ">last at",
                     ">late (sum)", "file"}));
  Strings text = text_cells(cross_rank_columns(), row);
  EXPECT_EQ(text[0], "1");
  EXPECT_EQ(text[6], "+2.748 ms");
  EXPECT_EQ(text[7], "0.1 us");
  EXPECT_EQ(text.back(), "rank1.json.gz");
  r.rank = 5;
  EXPECT_EQ(text_cells(cross_rank_columns(), row)[0], "5");
}

// The straggler line's "last at" is the table's count; where some of those calls held nobody up (ties), it says how
// many did.
TEST(CrossRankText, StragglerLineCountsAsTheTableAndSaysHowManyHeldOthersUp) {
  CrossRank t;
  t.ranks.resize(2);
  t.ranks[1].rank = 1;
  StragglerAnalysis s;
  s.last_arrivals = 3;
  s.position = 1;
  s.rank = 1;
  s.late_calls = 2;
  s.cost_ms_per_step = 0.5;
  s.step_ms_now = 2;
  s.step_ms_after = 1.5;
  t.straggler = s;
  std::string text = cross_rank_text(t, 5);
  EXPECT_NE(text.find("straggler: rank 1, last at 3 calls (2 of them holding others up), typically"), std::string::npos)
      << text;
  t.straggler->late_calls = 3;
  text = cross_rank_text(t, 5);
  EXPECT_NE(text.find("straggler: rank 1, last at 3 calls, typically"), std::string::npos) << text;
}

TEST(CrossRankColumns, CallsShowTheCommunicatorOrTheStreamOrder) {
  CrossRank t;
  t.matching = "stream order";
  t.ranks.resize(2);
  t.ranks[1].rank = 7;
  CollectiveRow c;
  c.name = std::string(70, 'n');
  c.stream_order = 3;
  c.ranks = 2;
  c.call = 4;
  c.last = 1;
  CollectiveTableRow row{c, t};
  EXPECT_EQ(csv_header(collective_columns(), {}),
            (Strings{"name", "stream_order", "call", "last_rank", "late_ms", "saving_ms", "others_wait_ms",
                     "max_wait_ms", "communicator", "ranks", "matching"}));
  Strings csv = csv_row(collective_columns(), row, {});
  EXPECT_EQ(Strings(csv.end() - 3, csv.end()), (Strings{"", "2", "stream order"}));
  EXPECT_EQ(csv[3], "7");
  nlohmann::ordered_json j = json_row(collective_columns(), row);
  EXPECT_EQ(keys(j), (Strings{"name", "communicator", "stream_order", "ranks", "call", "last_rank", "late_ms",
                              "saving_ms", "others_wait_ms", "max_wait_ms"}));
  EXPECT_TRUE(j["communicator"].is_null());
  EXPECT_EQ(text_headers(collective_columns(), "communicator"),
            (Strings{"collective", ">stream", ">ranks", ">call", ">last rank", ">late by", ">others waited",
                     ">longest wait"}));
  Strings by_communicator = text_headers(collective_columns(), "stream_order");
  EXPECT_EQ(by_communicator.size(), 8u);  // communicator once: the CSV's copy is not in the text form
  EXPECT_EQ(by_communicator[1], "communicator");
  Strings text = text_cells(collective_columns(), row, "communicator");
  EXPECT_EQ(text[0], std::string(57, 'n') + "...");
  EXPECT_EQ(text[1], "3");
  EXPECT_EQ(text[4], "7");
}

}  // namespace
}  // namespace cuprobe
