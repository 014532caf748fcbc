#include "load/bpe_tokenizer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

using Pieces = std::vector<std::string>;

TEST(BpeTokenizer, Gpt2Split) {
  EXPECT_EQ(pretokenize("Hello world, it's 12345  ok\n", SplitPattern::kGpt2),
            (Pieces{"Hello", " world", ",", " it", "'s", " 12345", " ", " ok", "\n"}));
  EXPECT_EQ(pretokenize("IT'S", SplitPattern::kGpt2), (Pieces{"IT", "'", "S"}))
      << "GPT-2's contractions are lower case";
  EXPECT_EQ(pretokenize("caf\xc3\xa9 \xe2\x80\x94 ok", SplitPattern::kGpt2),
            (Pieces{"caf\xc3\xa9", " \xe2\x80\x94", " ok"}));
}

TEST(BpeTokenizer, Llama3AndQwen2Split) {
  EXPECT_EQ(pretokenize("Hello world, it's 12345  ok\n", SplitPattern::kLlama3),
            (Pieces{"Hello", " world", ",", " it", "'s", " ", "123", "45", " ", " ok", "\n"}));
  EXPECT_EQ(pretokenize("IT'S (x) a\n\n  b", SplitPattern::kLlama3),
            (Pieces{"IT", "'S", " (", "x", ")", " a", "\n\n", " ", " b"}));
  EXPECT_EQ(pretokenize("x!!\n\ny", SplitPattern::kLlama3), (Pieces{"x", "!!\n\n", "y"}));
  EXPECT_EQ(pretokenize("a 123", SplitPattern::kQwen2), (Pieces{"a", " ", "1", "2", "3"}));
}

nlohmann::json tiny_tokenizer() {
  return {{"model",
           {{"type", "BPE"},
            {"vocab",
             {{"h", 0},
              {"e", 1},
              {"l", 2},
              {"o", 3},
              {"\xc4\xa0", 4},
              {"w", 5},
              {"r", 6},
              {"d", 7},
              {"he", 8},
              {"ll", 9},
              {"llo", 10},
              {"hello", 11},
              {"\xc4\xa0w", 12},
              {"or", 13},
              {"\xc4\xa0wor", 14}}},
            {"merges", {"h e", "l l", "ll o", "he llo", "\xc4\xa0 w", "o r", "\xc4\xa0w or"}}}},
          {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}}}};
}

std::string write(const std::string& name, const nlohmann::json& doc) {
  std::string path = test::temp_dir() + "/" + name;
  std::ofstream(path) << doc.dump();
  return path;
}

TEST(BpeTokenizer, MergesByRank) {
  std::string path = write("tokenizer.json", tiny_tokenizer());
  auto t = BpeTokenCounter::load(path);
  EXPECT_EQ(t->pattern(), SplitPattern::kGpt2);
  EXPECT_EQ(t->count("hello"), 1);
  EXPECT_EQ(t->count("hello world"), 4);  // hello | Ġwor l d
  EXPECT_EQ(t->count("hellohello"), 2);   // every occurrence of a pair merges at its rank
  EXPECT_EQ(t->count("hello\n"), 2);      // "\n" is the byte character "Ċ"
  EXPECT_EQ(t->count(""), 0);
  EXPECT_EQ(t->method(), "tokenizer " + path);

  nlohmann::json doc = tiny_tokenizer();
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& m : doc["model"]["merges"]) {
    std::string s = m.get<std::string>();
    pairs.push_back({s.substr(0, s.find(' ')), s.substr(s.find(' ') + 1)});
  }
  doc["model"]["merges"] = pairs;  // the newer [["a", "b"], ...] form
  EXPECT_EQ(BpeTokenCounter::load(write("pairs.json", doc))->count("hello world"), 4);

  doc["model"]["vocab"]["\xc4\xa0world"] = 15;
  doc["model"]["ignore_merges"] = true;  // a pre-token in the vocabulary is one token
  EXPECT_EQ(BpeTokenCounter::load(write("ignore.json", doc))->count("hello world"), 2);

  doc["pre_tokenizer"] = {
      {"type", "Sequence"},
      {"pretokenizers",
       {{{"type", "Split"}, {"pattern", {{"Regex", "(?i:'s|'t)|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+"}}}},
        {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}};
  EXPECT_EQ(BpeTokenCounter::load(write("llama.json", doc))->pattern(), SplitPattern::kLlama3);
}

// Tokenizers trained with Hugging Face `tokenizers` 0.23.2 (tests/data/bpe/make_ref.py)
// and that library's counts of 41 texts: ASCII, code, Cyrillic, CJK, emoji,
// numbers, contractions, CR/LF runs and 30 pieces of Python source.
TEST(BpeTokenizer, AgreesWithHuggingFaceTokenizers) {
  nlohmann::json ref = nlohmann::json::parse(std::ifstream(test::data_path("bpe/ref.json")));
  ASSERT_EQ(ref["texts"].size(), 41u);
  for (auto [name, pattern] : {std::pair{"gpt2", SplitPattern::kGpt2}, std::pair{"llama3", SplitPattern::kLlama3},
                               std::pair{"qwen2", SplitPattern::kQwen2}}) {
    auto t = BpeTokenCounter::load(test::data_path(std::string("bpe/") + name + ".json"));
    EXPECT_EQ(t->pattern(), pattern) << name;
    for (std::size_t i = 0; i < ref["texts"].size(); ++i) {
      EXPECT_EQ(t->count(ref["texts"][i].get<std::string>()), ref[name][i].get<std::int64_t>())
          << name << " text " << i;
    }
  }
}

// Token ids, token for token, on text with accents (composed and combining),
// CJK, Hangul, emoji sequences, Arabic, Devanagari, Thai, non-ASCII digits and
// spaces: tests/data/bpe/ids.json, from the reference in make_ids.py, which
// agrees with every count of ref.json above (the library's).
TEST(BpeTokenizer, IdsAgreeOnNonAsciiText) {
  nlohmann::json ref = nlohmann::json::parse(std::ifstream(test::data_path("bpe/ids.json")));
  ASSERT_GE(ref["texts"].size(), 20u);
  for (const char* name : {"gpt2", "llama3", "qwen2"}) {
    auto t = BpeTokenCounter::load(test::data_path(std::string("bpe/") + name + ".json"));
    for (std::size_t i = 0; i < ref["texts"].size(); ++i) {
      std::string text = ref["texts"][i].get<std::string>();
      EXPECT_EQ(t->encode(text), ref[name][i].get<std::vector<std::int64_t>>()) << name << ": " << text;
      EXPECT_EQ(t->count(text), static_cast<std::int64_t>(ref[name][i].size()));
    }
  }
}

TEST(BpeTokenizer, UnicodeClassesSplitAsTheRegex) {
  // A combining mark is not a letter: GPT-2 splits it off; CJK and Hangul are letters.
  EXPECT_EQ(pretokenize("cafe\xcc\x81 x", SplitPattern::kGpt2), (Pieces{"cafe", "\xcc\x81", " x"}));
  EXPECT_EQ(pretokenize("\xe6\x9d\xb1\xe4\xba\xac\xe3\x80\x82", SplitPattern::kGpt2),
            (Pieces{"\xe6\x9d\xb1\xe4\xba\xac", "\xe3\x80\x82"}));  // 東京 。
  // Arabic-Indic digits are numbers: Llama 3 takes three at a time.
  EXPECT_EQ(pretokenize("\xd9\xa1\xd9\xa2\xd9\xa3\xd9\xa4", SplitPattern::kLlama3),
            (Pieces{"\xd9\xa1\xd9\xa2\xd9\xa3", "\xd9\xa4"}));
  // U+3000 is white space; a no-break space before a word is its prefix in Llama 3.
  EXPECT_EQ(pretokenize("a\xe3\x80\x80"
                        "b",
                        SplitPattern::kGpt2),
            (Pieces{"a", "\xe3\x80\x80", "b"}));
  EXPECT_EQ(pretokenize("a\xc2\xa0"
                        "b",
                        SplitPattern::kLlama3),
            (Pieces{"a",
                    "\xc2\xa0"
                    "b"}));
}

TEST(BpeTokenizer, OtherTokenizersAreOneLine) {
  nlohmann::json doc = tiny_tokenizer();
  doc["model"]["type"] = "Unigram";
  EXPECT_THROW(BpeTokenCounter::load(write("unigram.json", doc)), InputError);
  doc = tiny_tokenizer();
  doc["pre_tokenizer"] = {{"type", "Metaspace"}};
  try {
    BpeTokenCounter::load(write("spm.json", doc));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("spm.json: only byte-level BPE"), std::string::npos) << e.what();
  }
  doc = tiny_tokenizer();
  doc["model"]["merges"] = {1, 2};
  EXPECT_THROW(BpeTokenCounter::load(write("merges.json", doc)), InputError);
  EXPECT_THROW(BpeTokenCounter::load(test::temp_dir() + "/none.json"), InputError);
}

// The fuzzer's find (CI, 2026-12-05): a field of another type than tokenizer.json gives it ("type": 4)
// escaped as the JSON library's type_error; now one line names the field.
TEST(BpeTokenizer, FieldsOfAnotherTypeAreOneLine) {
  nlohmann::json doc = tiny_tokenizer();
  doc["model"]["type"] = 4;
  try {
    BpeTokenCounter::load(write("type4.json", doc));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("type4.json: model.type is not a string"), std::string::npos) << e.what();
  }
  doc = tiny_tokenizer();
  doc["model"]["ignore_merges"] = "yes";
  EXPECT_THROW(BpeTokenCounter::load(write("ignore.json", doc)), InputError);
  doc = tiny_tokenizer();
  doc["pre_tokenizer"]["type"] = nlohmann::json::array();
  EXPECT_THROW(BpeTokenCounter::load(write("pretype.json", doc)), InputError);
}

// Issue 39: pre-tokenizers nested 200k deep were walked recursively until the stack overflowed; now one
// line names the file and the limit.
TEST(BpeTokenizer, DeeplyNestedPreTokenizersAreOneLine) {
  nlohmann::json doc = tiny_tokenizer();
  std::string text = doc.dump();
  std::string nested;
  const int depth = 200000;
  for (int i = 0; i < depth; ++i) nested += R"({"type":"Sequence","pretokenizers":[)";
  nested += R"({"type":"Metaspace"})";
  for (int i = 0; i < depth; ++i) nested += "]}";
  doc.erase("pre_tokenizer");
  text = doc.dump();
  text.insert(text.size() - 1, R"(,"pre_tokenizer":)" + nested);
  std::string path = test::write_temp_file("deep.json", text);
  try {
    BpeTokenCounter::load(path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("deep.json: pre_tokenizer: Sequences nested deeper than 32 levels"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cuprobe
