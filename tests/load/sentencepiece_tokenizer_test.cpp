#include "load/sentencepiece_tokenizer.h"

#include <gtest/gtest.h>

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

// Without the library (a name that does not load), the error says what to install.
TEST(SentencePieceTokenizer, MissingLibraryIsNamed) {
  auto r = test::run_program("/usr/bin/env", {"CUPROBE_LIBSENTENCEPIECE=/nonexistent/libsentencepiece.so.0",
                                              CUPROBE_BINARY, "bench", "http://127.0.0.1:9/", "--dataset-name",
                                              "random", "--tokenizer", test::data_path("spm/llama2.model"), "-q"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("needs the sentencepiece library (libsentencepiece.so.0: Debian's libsentencepiece0)"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace cuprobe
