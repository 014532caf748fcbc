#include "load/dataset_sharegpt.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::string words(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += i ? " w" : "w";
  return s;
}

nlohmann::json entry(const std::vector<std::pair<std::string, std::string>>& turns) {
  nlohmann::json conv = nlohmann::json::array();
  for (const auto& [from, value] : turns) conv.push_back({{"from", from}, {"value", value}});
  return {{"id", "x"}, {"conversations", conv}};
}

TEST(DatasetShareGpt, VllmFilterRules) {
  nlohmann::json doc = nlohmann::json::array({
      entry({{"human", words(10)}, {"gpt", words(20)}}),      // kept
      entry({{"human", words(3)}, {"gpt", words(20)}}),       // prompt < 4
      entry({{"human", words(10)}, {"gpt", words(3)}}),       // output < 4
      entry({{"human", words(1025)}, {"gpt", words(10)}}),    // prompt > 1024
      entry({{"human", words(1000)}, {"gpt", words(1049)}}),  // total > 2048
      entry({{"human", words(1000)}, {"gpt", words(1048)}}),  // total = 2048: kept
      entry({{"human", words(10)}}),                          // no reply: unusable
      nlohmann::json{{"conversations", "no"}},                // mistyped: unusable
  });
  ShareGptFile file = read_sharegpt(test::write_temp_file("sg.json", doc.dump()));
  EXPECT_EQ(file.entries, 8u);
  EXPECT_EQ(file.unusable, 2u);
  WordCounter counter;
  ShareGptSpec spec;
  spec.count = 100;
  ShareGptSelection sel = select_sharegpt(file, spec, counter);
  EXPECT_EQ(sel.conversations.size(), 2u);
  EXPECT_EQ(sel.too_short, 2u);
  EXPECT_EQ(sel.too_long, 2u);
  for (const auto& c : sel.conversations) {
    Prompt p = c.turn(0);
    EXPECT_EQ(p.max_tokens, p.expected_prompt_tokens == 10 ? 20 : 1048);
    EXPECT_EQ(p.messages.size(), 1u);
  }
  // A fixed output length skips the short-reply check only (as vLLM).
  spec.fixed_output_len = 5;
  sel = select_sharegpt(file, spec, counter);
  EXPECT_EQ(sel.conversations.size(), 4u);
  EXPECT_EQ(sel.too_short, 1u);
  EXPECT_EQ(sel.too_long, 1u);
  for (const auto& c : sel.conversations) EXPECT_EQ(c.turns[0].max_tokens, 5);
}

TEST(DatasetShareGpt, SeededChoiceAndMultiTurn) {
  nlohmann::json doc = nlohmann::json::array();
  for (int i = 0; i < 20; ++i) {
    doc.push_back(entry({{"human", "question " + std::to_string(i) + " " + words(5)},
                         {"gpt", words(8)},
                         {"human", words(6)},
                         {"gpt", words(9)},
                         {"human", words(7)}}));
  }
  ShareGptFile file = read_sharegpt(test::write_temp_file("mt.json", doc.dump()));
  WordCounter counter;
  ShareGptSpec spec;
  spec.count = 5;
  spec.seed = 3;
  auto a = select_sharegpt(file, spec, counter);
  auto b = select_sharegpt(file, spec, counter);
  ASSERT_EQ(a.conversations.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(a.conversations[i].turn(0).text, b.conversations[i].turn(0).text);
  spec.seed = 4;
  EXPECT_NE(select_sharegpt(file, spec, counter).conversations[0].turn(0).text, a.conversations[0].turn(0).text);
  EXPECT_EQ(a.conversations[0].turns.size(), 1u);
  spec.multi_turn = true;
  auto m = select_sharegpt(file, spec, counter);
  ASSERT_EQ(m.conversations[0].turns.size(), 2u) << "the last question has no reply to size it";
  EXPECT_EQ(m.conversations[0].turns[0].max_tokens, 8);
  EXPECT_EQ(m.conversations[0].turns[1].max_tokens, 9);
  EXPECT_EQ(m.conversations[0].turn(1).messages.size(), 3u);
  spec.fixed_output_len = 4;
  EXPECT_EQ(select_sharegpt(file, spec, counter).conversations[0].turns.size(), 3u);
}

TEST(DatasetShareGpt, BadFilesSayWhereAndWhy) {
  try {
    read_sharegpt(test::write_temp_file("bad.json", "[{\"conversations\": [}]"));
    FAIL();
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("bad.json: byte 20: not valid JSON"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
  EXPECT_THROW(read_sharegpt(test::write_temp_file("obj.json", "{\"conversations\": []}")), Error);
  EXPECT_THROW(read_sharegpt(test::write_temp_file("none.json",
                                                   "[{\"conversations\": [{\"from\": \"gpt\", \"value\": \"x\"}]}]")),
               Error);
  EXPECT_THROW(read_sharegpt(test::temp_dir() + "/missing.json"), Error);
}

}  // namespace
}  // namespace cuprobe
