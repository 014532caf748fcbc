#include "load/sentencepiece_tokenizer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe {
namespace {

// Models trained with Debian's python3-sentencepiece as Llama 2 / Mistral
// (BPE, byte fallback, dummy prefix), Gemma (no dummy prefix, added symbols)
// and T5 (unigram, NFKC) set theirs up, and the library's ids of 30 texts with
// accents, CJK, Hangul, emoji, Arabic, Devanagari, Thai and white space runs
// (tests/data/spm/make_models.py).
TEST(SentencePieceTokenizer, IdsAreTheLibrarysTokenForToken) {
  if (!sentencepiece_unavailable().empty()) GTEST_SKIP() << sentencepiece_unavailable();
  nlohmann::json ref = nlohmann::json::parse(std::ifstream(test::data_path("spm/ids.json")));
  ASSERT_EQ(ref["texts"].size(), 30u);
  for (const char* name : {"llama2", "gemma", "t5"}) {
    std::string path = test::data_path(std::string("spm/") + name + ".model");
    auto t = SentencePieceCounter::load(path);
    EXPECT_EQ(t->method(), "sentencepiece " + path);
    EXPECT_TRUE(t->concurrent());
    for (std::size_t i = 0; i < ref["texts"].size(); ++i) {
      std::string text = ref["texts"][i].get<std::string>();
      EXPECT_EQ(t->encode(text), ref[name][i].get<std::vector<int>>()) << name << ": " << text;
      EXPECT_EQ(t->count(text), static_cast<std::int64_t>(ref[name][i].size()));
    }
  }
}

TEST(SentencePieceTokenizer, BadFilesAreOneLine) {
  if (!sentencepiece_unavailable().empty()) GTEST_SKIP() << sentencepiece_unavailable();
  std::string junk = test::write_temp_file("tokenizer.model", "not a protocol buffer at all");
  try {
    SentencePieceCounter::load(junk);
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tokenizer.model: not a SentencePiece model"), std::string::npos) << e.what();
  }
  EXPECT_THROW(SentencePieceCounter::load(test::temp_dir() + "/none.model"), InputError);
}

// Issue 39 item 4: a model file is bounded before it is read; above the bound, one line naming the file.
TEST(SentencePieceTokenizer, OversizedModelIsRefusedNamingTheFile) {
  if (!sentencepiece_unavailable().empty()) GTEST_SKIP() << sentencepiece_unavailable();
  std::string big = test::write_temp_file("huge.model", "");
  ASSERT_EQ(truncate(big.c_str(), static_cast<off_t>(kMaxSentencePieceModelBytes + 1)), 0);  // sparse
  try {
    SentencePieceCounter::load(big);
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("huge.model"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_THROW(SentencePieceCounter::load("/dev/zero"), InputError);  // a device never reaches the library
}

// A cuprobe built without libsentencepiece-dev says so in one line and what to do instead.
TEST(SentencePieceTokenizer, BuiltWithoutTheLibraryIsOneLine) {
  if (sentencepiece_unavailable().empty()) GTEST_SKIP() << "built with libsentencepiece";
  auto r = test::run_program(CUPROBE_BINARY, {"bench", "http://127.0.0.1:9/", "--dataset-name", "random", "--tokenizer",
                                              test::data_path("spm/llama2.model"), "-q"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("built without it (libsentencepiece-dev"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cuprobe
