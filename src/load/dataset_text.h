// Synthetic text for bench workloads: a seeded stream of common English words
// (one token each in the GPT, Llama and Qwen vocabularies), cut to a length
// in tokens as a TokenCounter counts them.
#pragma once

#include <cstdint>
#include <string>

#include "load/token_counter.h"

namespace cuprobe {

// The first `words` words of the stream `stream` (same stream, same words).
std::string word_text(std::uint64_t stream, std::int64_t words);

struct FittedText {
  std::string text;
  std::int64_t tokens = 0;  // as the counter counts `text`
  bool exact = false;       // tokens == the target
};

// A prefix of the stream whose count is `target` tokens (at least
// one word); when no prefix has exactly that many, the longest one below it.
// Each try costs one count (words: none is needed beyond the first).
FittedText fit_text(TokenCounter& counter, std::uint64_t stream, std::int64_t target);

}  // namespace cuprobe
