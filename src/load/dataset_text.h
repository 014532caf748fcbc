// Synthetic text for bench workloads: a seeded stream of common English words
// (one token each in the GPT, Llama and Qwen vocabularies), cut to a length
// in tokens as a TokenCounter counts them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "load/token_counter.h"

namespace cuprobe {

// The seed of one piece of text of a workload: independent streams for every
// (seed, kind, index), `kind` naming what the text is for (TextStream).
std::uint64_t text_stream(std::uint64_t seed, std::uint64_t kind, std::uint64_t index);

enum TextStream : std::uint64_t {
  kRandomText = 1,
  kSystemPrompt = 2,
  kQuestion = 3,
  kRandomPrefix = 4,
  kRepeatedPrefix = 5,
  kSuffix = 6,
  kBurstGptPrompt = 7,
  kTraceChunk = 8,
  kTraceTail = 9,
};

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

struct FitJob {
  std::uint64_t stream = 0;
  std::int64_t target = 0;
  FittedText fitted;
};
// fit_text for every job, on up to 8 threads when the counter allows it (a
// server's /tokenize: the calls' round trips overlap); the same results as one
// by one. Rethrows the first error.
void fit_all(TokenCounter& counter, std::vector<FitJob>& jobs);

// counter.count() of every text, in parallel as fit_all.
std::vector<std::int64_t> count_all(TokenCounter& counter, const std::vector<std::string>& texts);

// Calls each(0..n-1) on up to 8 threads when the counter allows concurrent
// counts, else in order on this one; rethrows the first error.
void for_each_count(TokenCounter& counter, std::size_t n, const std::function<void(std::size_t)>& each);

}  // namespace cuprobe
