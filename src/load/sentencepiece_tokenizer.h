// Counting tokens with a SentencePiece model (tokenizer.model: Llama 2,
// Mistral, Gemma, T5 and their kin) through the sentencepiece library itself.
// The library is opened at run time (dlopen of libsentencepiece.so.0, Debian's
// libsentencepiece0; $CUPROBE_LIBSENTENCEPIECE or the copy beside the cuprobe
// binary first): GPU hosts lack the -dev packages, Debian ships no static
// library, and cuprobe must run without it. Its C++ entry points are resolved
// by their mangled names (the library is C++ only), so the processor is driven
// as the library's own callers drive it. Encode() gives the ids without BOS or
// EOS, as add_special_tokens=false does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "load/token_counter.h"

namespace cuprobe {

class SentencePieceCounter final : public TokenCounter {
 public:
  // Throws cuprobe::Error naming the library when it cannot be loaded, and
  // InputError (FILE: reason) for a file the library does not load.
  static std::unique_ptr<SentencePieceCounter> load(const std::string& path);
  ~SentencePieceCounter() override;
  SentencePieceCounter(const SentencePieceCounter&) = delete;
  SentencePieceCounter& operator=(const SentencePieceCounter&) = delete;

  std::int64_t count(const std::string& text) override;
  std::vector<int> encode(const std::string& text);
  std::string method() const override { return "sentencepiece " + path_; }
  bool concurrent() const override { return true; }  // the library's Encode is const and thread-safe

 private:
  SentencePieceCounter() = default;
  std::string path_;
  std::unique_ptr<unsigned char[]> processor_;  // a sentencepiece::SentencePieceProcessor
};

// "" when the library loads, else why not (one line).
std::string sentencepiece_unavailable();

}  // namespace cuprobe
