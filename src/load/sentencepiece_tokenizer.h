// Counting tokens with a SentencePiece model (tokenizer.model: Llama 2,
// Mistral, Gemma, T5 and their kin) through the sentencepiece library itself,
// linked the normal way (libsentencepiece-dev, found by pkg-config at build
// time; Debian's libsentencepiece0 at run time). A cuprobe built without it
// refuses --tokenizer FILE.model with one line; everything else works. The model
// file is read by cuprobe with a bound (kMaxSentencePieceModelBytes) and handed
// to the library as bytes. Encode() gives the ids without BOS or EOS, as
// add_special_tokens=false does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "load/token_counter.h"

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace cuprobe {

// Real models are a few MB (Llama 2: 0.5 MB, Gemma 3: 4.5 MB); a file above this is refused before it is read.
constexpr std::uint64_t kMaxSentencePieceModelBytes = 64ull << 20;

class SentencePieceCounter final : public TokenCounter {
 public:
  // Throws cuprobe::Error when cuprobe was built without the library, and
  // InputError (FILE: reason) for a file that is too large or that the library does not load.
  static std::unique_ptr<SentencePieceCounter> load(const std::string& path);
  ~SentencePieceCounter() override;
  SentencePieceCounter(const SentencePieceCounter&) = delete;
  SentencePieceCounter& operator=(const SentencePieceCounter&) = delete;

  std::int64_t count(const std::string& text) override;
  std::vector<int> encode(const std::string& text);
  std::string method() const override { return "sentencepiece " + path_; }
  bool concurrent() const override { return true; }  // the library's Encode is const and thread-safe

 private:
  SentencePieceCounter();
  std::string path_;
  std::unique_ptr<sentencepiece::SentencePieceProcessor> processor_;
};

// "" when cuprobe was built with the library, else why not (one line).
std::string sentencepiece_unavailable();

}  // namespace cuprobe
