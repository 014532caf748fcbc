#include "load/dataset_sonnet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "common/error.h"
#include "load/dataset_text.h"
#include "load/sonnet_text.h"
#include "support/error_text.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

TEST(DatasetSonnet, BundledTextIsShakespeares) {
  auto lines = sonnet_lines("");
  ASSERT_EQ(lines.size(), 518u);  // Sonnets 1-37, fourteen lines each
  EXPECT_EQ(lines[0], "FROM fairest creatures we desire increase,\n");
  EXPECT_EQ(lines.back(), "This wish I have; then ten times happy me!\n");
  EXPECT_NE(std::string(sonnet_text()).find("Shall I compare thee to a summer's day?\n"), std::string::npos);
  for (const std::string& l : lines) EXPECT_EQ(l.find('\r'), std::string::npos);
}

// vLLM's rule in words: the instruction is 11 words, a verse about 7.
TEST(DatasetSonnet, PromptsFollowVllmsRule) {
  auto lines = sonnet_lines("");
  SonnetSpec spec;
  spec.input_len = 120;
  spec.prefix_len = 50;
  spec.output_len = 33;
  spec.count = 30;
  spec.seed = 4;
  WordCounter words;
  auto c = sonnet_dataset(lines, spec, words);
  ASSERT_EQ(c.size(), 30u);
  double avg = 0;
  for (const auto& l : lines) avg += count_words(l);
  avg /= lines.size();
  std::int64_t base = count_words(kSonnetInstruction);
  EXPECT_EQ(base, 11);
  auto total_lines = static_cast<std::size_t>(std::nearbyint((120 - base) / avg));
  auto prefix_lines = static_cast<std::size_t>(std::nearbyint((50 - base) / avg));
  std::string prefix = kSonnetInstruction;
  for (std::size_t i = 0; i < prefix_lines; ++i) prefix += lines[i];
  std::set<std::string> texts;
  for (const auto& conv : c) {
    const Prompt& p = conv.turns[0];
    EXPECT_EQ(p.max_tokens, 33);
    EXPECT_EQ(p.text.rfind(prefix, 0), 0u) << "every prompt starts with the instruction and the first verses";
    EXPECT_EQ(static_cast<std::size_t>(std::count(p.text.begin(), p.text.end(), '\n')), 1 + total_lines);
    EXPECT_LE(p.expected_prompt_tokens, 120) << "longer draws are drawn again";
    EXPECT_EQ(p.expected_prompt_tokens, count_words(p.text));
    texts.insert(p.text);
  }
  EXPECT_EQ(texts.size(), 30u);
  WordCounter again;
  EXPECT_EQ(sonnet_dataset(lines, spec, again)[7].turns[0].text, c[7].turns[0].text) << "seeded";
}

TEST(DatasetSonnet, OwnTextAndBadSettings) {
  std::string path = test::write_temp_file("poem.txt", "one two three\nfour five six\nseven eight nine\n");
  auto lines = sonnet_lines(path);
  ASSERT_EQ(lines.size(), 3u);
  SonnetSpec spec;
  spec.input_len = 20;
  spec.prefix_len = 13;
  spec.count = 5;
  WordCounter words;
  auto c = sonnet_dataset(lines, spec, words);
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c[0].turns[0].text.rfind(std::string(kSonnetInstruction) + "one two three\n", 0), 0u);
  spec.input_len = 10;  // no longer than the instruction
  spec.prefix_len = 0;
  EXPECT_THROW(sonnet_dataset(lines, spec, words), Error);
  spec.input_len = 20;
  spec.prefix_len = 30;
  EXPECT_THROW(sonnet_dataset(lines, spec, words), Error);
  EXPECT_THROW(sonnet_lines("/nonexistent/sonnet.txt"), Error);
  EXPECT_THROW(sonnet_lines(test::write_temp_file("empty.txt", "")), Error);
}

// A counter under which verses together count far more than each alone: no draw fits.
class SpikyCounter final : public TokenCounter {
 public:
  std::int64_t count(const std::string& text) override {
    return std::count(text.begin(), text.end(), '\n') > 1 ? 1000 : count_words(text);
  }
  std::string method() const override { return "spiky"; }
};

TEST(DatasetSonnet, GivesUpWhenNoDrawFits) {
  std::string path = test::write_temp_file("poem.txt", "a b c\nd e f\n");
  SonnetSpec spec;
  spec.input_len = 16;
  spec.prefix_len = 0;
  spec.count = 3;
  SpikyCounter spiky;
  try {
    sonnet_dataset(sonnet_lines(path), spec, spiky);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("fit --sonnet-input-len 16"), std::string::npos) << e.what();
  }
}

// Issue 39: a text of blank lines (no token a line) is refused, not drawn from forever; an input
// length beyond any context is refused before anything is built.
TEST(DatasetSonnet, BlankLinesAndHugeLengthsAreRefused) {
  auto blank = sonnet_lines(test::write_temp_file("blank.txt", std::string(1000, '\n')));
  ASSERT_EQ(blank.size(), 1000u);
  SonnetSpec spec;
  spec.input_len = 100;
  spec.prefix_len = 0;
  spec.count = 2;
  WordCounter words;
  EXPECT_EQ(test::error_text([&] { sonnet_dataset(blank, spec, words); }),
            "sonnet: the text's 1000 lines hold 0 tokens, less than one a line: give a text with words "
            "(--dataset-path)");
  spec.input_len = 1'000'000'000;
  EXPECT_EQ(test::error_text([&] { sonnet_dataset(sonnet_lines(""), spec, words); }),
            "--sonnet-input-len 1000000000 is over the limit of 1048576 tokens");
}

}  // namespace
}  // namespace cuprobe
