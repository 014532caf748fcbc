// vLLM's `custom` dataset: a JSONL file of {"prompt": "...", "output_tokens": N}
// lines (output_tokens optional). As vLLM does: the lines are shuffled with the
// seed (unless --disable-shuffle), the first --num-prompts are taken (all when
// 0), and when the file has fewer, the rest are drawn from them at random
// (unless --no-oversample). Every request asks for --custom-output-len tokens,
// or, when it is -1, for its line's output_tokens.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "load/workload.h"

namespace cuprobe {

struct CustomLine {
  std::string prompt;
  std::int64_t output_tokens = -1;  // -1: the line has none
  long long line = 0;
};

// Throws InputError (FILE: line N: reason) for a line without a string
// "prompt" or with an "output_tokens" that is not a positive integer, and for
// a file without prompts. Other fields are ignored.
std::vector<CustomLine> read_custom_jsonl(const std::string& path);

struct CustomSpec {
  std::int64_t output_len = 256;  // --custom-output-len; -1: each line's output_tokens
  std::uint64_t count = 0;        // requests; 0: every line
  bool shuffle = true;            // not --disable-shuffle
  bool oversample = true;         // not --no-oversample
  std::uint64_t seed = 0;
};

// Throws cuprobe::Error (exit 2) for an output length of 0 or below -1, and
// InputError naming the first line without output_tokens when it is -1.
std::vector<Conversation> custom_dataset(const std::vector<CustomLine>& lines, const CustomSpec& spec,
                                         const std::string& path);

}  // namespace cuprobe
