#include "load/dataset_random.h"

#include <gtest/gtest.h>

#include <map>
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

// The first n words of text, with the space after them.
std::string leading_words(const std::string& text, int n) {
  std::size_t cut = 0;
  for (int w = 0; w < n; ++w) cut = text.find(' ', cut) + 1;
  return text.substr(0, cut);
}

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

TEST(DatasetRandom, LengthRangeIsSglangsWhenAsked) {
  // SGLang's compute_random_lens: randint(max(int(len * r), 1), len + 1).
  LengthRange r = length_range(100, 0.25, RangeRule::kSglang);
  EXPECT_EQ(r.low, 25);
  EXPECT_EQ(r.high, 100);
  r = length_range(100, 0, RangeRule::kSglang);  // SGLang's default ratio: anything from 1
  EXPECT_EQ(r.low, 1);
  EXPECT_EQ(r.high, 100);
  r = length_range(10, 1.0, RangeRule::kSglang);
  EXPECT_EQ(r.low, 10);
  EXPECT_EQ(r.high, 10);
  EXPECT_EQ(length_range(10, 0.33, RangeRule::kSglang).low, 3);  // int(3.3)
  EXPECT_STREQ(range_rule_name(RangeRule::kSglang), "sglang");
  EXPECT_STREQ(range_rule_name(RangeRule::kVllm), "vllm");

  RandomSpec spec;
  spec.input_len = 30;
  spec.output_len = 10;
  spec.range_ratio = 0.5;
  spec.rule = RangeRule::kSglang;
  spec.count = 200;
  WordCounter words;
  std::set<std::int64_t> inputs, outputs;
  for (const Conversation& c : random_dataset(spec, words)) {
    inputs.insert(c.turns[0].expected_prompt_tokens);
    outputs.insert(c.turns[0].max_tokens);
  }
  EXPECT_EQ(*inputs.begin(), 15);  // every length of [15, 30] is drawn
  EXPECT_EQ(*inputs.rbegin(), 30);
  EXPECT_EQ(inputs.size(), 16u);
  EXPECT_EQ(*outputs.begin(), 5);
  EXPECT_EQ(*outputs.rbegin(), 10);
  spec.range_ratio = 1.0;  // allowed by SGLang's rule, not by vLLM's
  EXPECT_NO_THROW(check_random_spec(spec));
  spec.rule = RangeRule::kVllm;
  EXPECT_THROW(check_random_spec(spec), Error);
}

TEST(DatasetRandom, PrefixIsSharedAndCountsInTheLength) {
  RandomSpec spec;
  spec.input_len = 12;
  spec.output_len = 4;
  spec.prefix_len = 25;
  spec.range_ratio = 0.5;
  spec.count = 40;
  spec.seed = 3;
  WordCounter words;
  auto c = random_dataset(spec, words);
  ASSERT_EQ(c.size(), 40u);
  std::set<std::string> prefixes, rests;
  for (const Conversation& conv : c) {
    const Prompt& p = conv.turns[0];
    EXPECT_EQ(count_words(p.text), p.expected_prompt_tokens);
    EXPECT_GE(p.expected_prompt_tokens, 25 + 6);  // prefix + [6, 18]
    EXPECT_LE(p.expected_prompt_tokens, 25 + 18);
    prefixes.insert(leading_words(p.text, 25));
    rests.insert(p.text.substr(leading_words(p.text, 25).size()));
  }
  EXPECT_EQ(prefixes.size(), 1u) << "one prefix, the same for every request";
  EXPECT_EQ(rests.size(), 40u) << "each request's own text differs";
  spec.prefix_len = 0;
  WordCounter again;
  auto plain = random_dataset(spec, again);
  EXPECT_EQ(plain[0].turns[0].max_tokens, c[0].turns[0].max_tokens) << "the prefix changes no drawn length";
  EXPECT_EQ(count_words(plain[0].turns[0].text) + 25, c[0].turns[0].expected_prompt_tokens);
  spec.prefix_len = -1;
  EXPECT_THROW(check_random_spec(spec), Error);
}

TEST(DatasetRandom, SharedPrefixRangeRatioDrawsLengthsBySglangsRule) {
  SharedPrefixSpec spec;
  spec.groups = 4;
  spec.prompts_per_group = 25;
  spec.system_prompt_len = 40;
  spec.question_len = 20;
  spec.output_len = 10;
  spec.range_ratio = 0.5;
  WordCounter words;
  auto c = shared_prefix_dataset(spec, words);
  ASSERT_EQ(c.size(), 100u);
  std::map<std::string, std::int64_t> systems;
  std::set<std::int64_t> questions, outputs;
  for (const Conversation& conv : c) {
    const Prompt& p = conv.turns[0];
    std::size_t cut = p.text.find("\n\n");
    std::int64_t system = count_words(p.text.substr(0, cut));
    systems[p.text.substr(0, cut)] = system;
    EXPECT_GE(system, 20);
    EXPECT_LE(system, 40);
    questions.insert(count_words(p.text.substr(cut + 2)));
    outputs.insert(p.max_tokens);
  }
  EXPECT_EQ(systems.size(), 4u);
  EXPECT_GE(*questions.begin(), 10);
  EXPECT_LE(*questions.rbegin(), 20);
  EXPECT_GT(questions.size(), 5u);
  EXPECT_GE(*outputs.begin(), 5);
  EXPECT_LE(*outputs.rbegin(), 10);
  EXPECT_GT(outputs.size(), 2u);
  spec.range_ratio = 1.5;
  EXPECT_THROW(check_shared_prefix_spec(spec), Error);
}

TEST(DatasetRandom, PrefixRepetitionIsVllms) {
  PrefixRepetitionSpec spec;
  spec.prefix_len = 20;
  spec.suffix_len = 7;
  spec.num_prefixes = 3;
  spec.output_len = 5;
  spec.requests = 14;  // 3 prefixes x (14 / 3 = 4) = 12 requests, as vLLM makes them
  spec.seed = 9;
  WordCounter words;
  auto c = prefix_repetition_dataset(spec, words);
  ASSERT_EQ(c.size(), 12u);
  std::map<std::string, int> per_prefix;
  std::set<std::string> suffixes;
  for (const Conversation& conv : c) {
    const Prompt& p = conv.turns[0];
    EXPECT_EQ(p.max_tokens, 5);
    EXPECT_EQ(p.expected_prompt_tokens, 27);
    EXPECT_EQ(count_words(p.text), 27);
    ++per_prefix[leading_words(p.text, 20)];
    suffixes.insert(p.text.substr(leading_words(p.text, 20).size()));
  }
  EXPECT_EQ(per_prefix.size(), 3u);
  for (const auto& [prefix, n] : per_prefix) EXPECT_EQ(n, 4);
  EXPECT_EQ(suffixes.size(), 12u);
  std::set<std::string> first_four;  // shuffled: not one prefix after another
  for (int i = 0; i < 4; ++i) first_four.insert(c[i].turns[0].text.substr(0, 40));
  EXPECT_GT(first_four.size(), 1u);
  WordCounter again;
  EXPECT_EQ(prefix_repetition_dataset(spec, again)[5].turns[0].text, c[5].turns[0].text) << "seeded";
  spec.requests = 2;  // fewer requests than prefixes: vLLM refuses
  EXPECT_THROW(check_prefix_repetition_spec(spec), Error);
  spec.requests = 10;
  spec.suffix_len = 0;
  EXPECT_THROW(check_prefix_repetition_spec(spec), Error);
}

}  // namespace
}  // namespace cuprobe
