#include "load/dataset_random.h"

#include <gtest/gtest.h>

#include <set>

#include "common/error.h"
#include "load/dataset_text.h"

namespace cuprobe {
namespace {

// A tokenizer where every word of n letters is ceil(n / 3) tokens.
class ThreeCharCounter final : public TokenCounter {
 public:
  std::int64_t count(const std::string& text) override {
    ++calls_;
    std::int64_t tokens = 0, word = 0;
    for (char c : text + " ") {
      if (c == ' ' || c == '\n') {
        tokens += (word + 2) / 3;
        word = 0;
      } else {
        ++word;
      }
    }
    return tokens;
  }
  std::string method() const override { return "three chars"; }
  std::uint64_t calls() const override { return calls_; }

 private:
  std::uint64_t calls_ = 0;
};

TEST(DatasetRandom, LengthRangeIsVllms) {
  LengthRange r = length_range(100, 0.25);
  EXPECT_EQ(r.low, 75);
  EXPECT_EQ(r.high, 125);
  r = length_range(10, 0.33);
  EXPECT_EQ(r.low, 6);    // floor(6.7)
  EXPECT_EQ(r.high, 14);  // ceil(13.3)
  r = length_range(3, 0.9);
  EXPECT_EQ(r.low, 1);
  EXPECT_EQ(length_range(128, 0).low, 128);
  EXPECT_EQ(length_range(128, 0).high, 128);
}

TEST(DatasetRandom, LengthsInRangeExactAndDeterministic) {
  RandomSpec spec;
  spec.input_len = 40;
  spec.output_len = 20;
  spec.range_ratio = 0.5;
  spec.count = 50;
  spec.seed = 7;
  ThreeCharCounter counter;
  auto a = random_dataset(spec, counter);
  ThreeCharCounter again;
  auto b = random_dataset(spec, again);
  ASSERT_EQ(a.size(), 50u);
  std::set<std::int64_t> inputs;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Prompt& p = a[i].turns.at(0);
    EXPECT_EQ(p.text, b[i].turns[0].text);
    EXPECT_GE(p.expected_prompt_tokens, 20);
    EXPECT_LE(p.expected_prompt_tokens, 60);
    EXPECT_EQ(ThreeCharCounter().count(p.text), p.expected_prompt_tokens) << "the counted length is the text's";
    EXPECT_GE(p.max_tokens, 10);
    EXPECT_LE(p.max_tokens, 30);
    inputs.insert(p.expected_prompt_tokens);
  }
  EXPECT_GT(inputs.size(), 10u) << "lengths spread over the range";
  spec.seed = 8;
  ThreeCharCounter other;
  EXPECT_NE(random_dataset(spec, other)[0].turns[0].text, a[0].turns[0].text);
}

TEST(DatasetRandom, FitTextIsExactInWordsWithOneCount) {
  WordCounter words;
  FittedText t = fit_text(words, 3, 17);
  EXPECT_TRUE(t.exact);
  EXPECT_EQ(count_words(t.text), 17);
  EXPECT_EQ(t.text, word_text(3, 17));
}

TEST(DatasetRandom, BadSpecsAreUsageErrors) {
  RandomSpec spec;
  spec.range_ratio = 1.0;
  EXPECT_THROW(check_random_spec(spec), Error);
  spec.range_ratio = -0.1;
  EXPECT_THROW(check_random_spec(spec), Error);
  spec.range_ratio = 0;
  spec.input_len = 0;
  EXPECT_THROW(check_random_spec(spec), Error);
  SharedPrefixSpec gsp;
  gsp.groups = 0;
  EXPECT_THROW(check_shared_prefix_spec(gsp), Error);
}

TEST(DatasetRandom, SharedPrefixGroupsShareTheirSystemPrompt) {
  SharedPrefixSpec spec;
  spec.groups = 3;
  spec.prompts_per_group = 4;
  spec.system_prompt_len = 30;
  spec.question_len = 5;
  spec.output_len = 9;
  spec.seed = 1;
  WordCounter words;
  auto c = shared_prefix_dataset(spec, words);
  ASSERT_EQ(c.size(), 12u);
  std::map<std::string, int> per_prefix;
  std::set<std::string> questions;
  for (const auto& conv : c) {
    const Prompt& p = conv.turns.at(0);
    std::size_t cut = p.text.find("\n\n");
    ASSERT_NE(cut, std::string::npos);
    ++per_prefix[p.text.substr(0, cut)];
    questions.insert(p.text.substr(cut + 2));
    EXPECT_EQ(count_words(p.text.substr(0, cut)), 30);
    EXPECT_EQ(p.expected_prompt_tokens, 35);
    EXPECT_EQ(p.max_tokens, 9);
  }
  EXPECT_EQ(per_prefix.size(), 3u);
  for (const auto& [prefix, n] : per_prefix) EXPECT_EQ(n, 4);
  EXPECT_EQ(questions.size(), 12u);
  // Shuffled: the first four are not one group in order.
  std::set<std::string> first_four;
  for (int i = 0; i < 4; ++i) first_four.insert(c[i].turns[0].text.substr(0, c[i].turns[0].text.find("\n\n")));
  EXPECT_GT(first_four.size(), 1u);
}

}  // namespace
}  // namespace cuprobe
