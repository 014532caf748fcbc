#include "load/dataset_custom.h"

#include <gtest/gtest.h>

#include <set>

#include "common/error.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::string custom_file() {
  return test::write_temp_file("custom.jsonl",
                               "{\"prompt\": \"What is the capital of India?\", \"output_tokens\": 10}\n"
                               "\n"
                               "{\"prompt\": \"What is the capital of Iran?\", \"output_tokens\": 1520, \"x\": 1}\n"
                               "{\"prompt\": \"What is the capital of China?\", \"output_tokens\": 819.0}\n"
                               "{\"prompt\": \"Name a river.\"}\n");
}

std::vector<std::string> prompts(const std::vector<Conversation>& c) {
  std::vector<std::string> out;
  for (const auto& conv : c) out.push_back(conv.turns.at(0).text);
  return out;
}

TEST(DatasetCustom, ReadsVllmsFields) {
  std::string path = custom_file();
  auto lines = read_custom_jsonl(path);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].prompt, "What is the capital of India?");
  EXPECT_EQ(lines[0].output_tokens, 10);
  EXPECT_EQ(lines[1].output_tokens, 1520);
  EXPECT_EQ(lines[1].line, 3) << "blank lines keep the numbering";
  EXPECT_EQ(lines[2].output_tokens, 819);
  EXPECT_EQ(lines[3].output_tokens, -1);
}

TEST(DatasetCustom, OutputLengthFlagOrEachLines) {
  std::string path = custom_file();
  auto lines = read_custom_jsonl(path);
  CustomSpec spec;
  spec.shuffle = false;
  auto c = custom_dataset(lines, spec, path);
  ASSERT_EQ(c.size(), 4u);
  for (const auto& conv : c) EXPECT_EQ(conv.turns[0].max_tokens, 256) << "--custom-output-len's default";
  spec.output_len = -1;
  spec.count = 3;
  c = custom_dataset(lines, spec, path);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].turns[0].max_tokens, 10);
  EXPECT_EQ(c[1].turns[0].max_tokens, 1520);
  EXPECT_EQ(c[2].turns[0].max_tokens, 819);
  spec.count = 0;  // all: the fourth line has no output_tokens
  try {
    custom_dataset(lines, spec, path);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("line 5: has no \"output_tokens\""), std::string::npos) << e.what();
  }
  spec.output_len = 0;
  EXPECT_THROW(custom_dataset(lines, spec, path), Error);
}

TEST(DatasetCustom, ShuffledWithTheSeedAndOversampled) {
  std::string path = custom_file();
  auto lines = read_custom_jsonl(path);
  CustomSpec spec;
  spec.count = 4;
  std::set<std::vector<std::string>> orders;
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    spec.seed = seed;
    auto c = prompts(custom_dataset(lines, spec, path));
    EXPECT_EQ(std::set<std::string>(c.begin(), c.end()).size(), 4u) << "a permutation";
    orders.insert(c);
  }
  EXPECT_GT(orders.size(), 2u);
  spec.seed = 3;
  EXPECT_EQ(prompts(custom_dataset(lines, spec, path)), prompts(custom_dataset(lines, spec, path)));
  spec.count = 11;
  auto many = prompts(custom_dataset(lines, spec, path));
  ASSERT_EQ(many.size(), 11u);
  EXPECT_EQ(std::set<std::string>(many.begin(), many.end()).size(), 4u) << "the extra requests repeat lines";
  spec.oversample = false;
  EXPECT_EQ(custom_dataset(lines, spec, path).size(), 4u);
}

TEST(DatasetCustom, BadLinesNameTheirLine) {
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"{\"prompt\": \"a\"}\n{\"text\": \"b\"}\n", "line 2: needs \"prompt\""},
           {"{\"prompt\": 3}\n", "line 1: needs \"prompt\""},
           {"{\"prompt\": \"a\", \"output_tokens\": \"many\"}\n", "line 1: \"output_tokens\" must be an integer"},
           {"{\"prompt\": \"a\", \"output_tokens\": 0}\n",
            "line 1: \"output_tokens\" must be an integer of at least 1"},
           {"[1]\n", "line 1: not a JSON object"},
           {"\n\n", "no prompts"}}) {
    std::string path = test::write_temp_file("bad.jsonl", text);
    try {
      read_custom_jsonl(path);
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(path, 0), 0u) << e.what();
    }
  }
  EXPECT_THROW(read_custom_jsonl("/nonexistent/custom.jsonl"), Error);
}

}  // namespace
}  // namespace cuprobe
