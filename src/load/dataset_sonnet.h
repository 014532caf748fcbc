// vLLM's `sonnet` dataset, on a bundled public-domain text (Shakespeare's
// Sonnets, load/sonnet_text.h) or the lines of --dataset-path. vLLM's rule:
// every prompt is "Pick as many lines as you can from these poem lines:\n"
// followed by the first round((prefix_len - base) / avg) lines of the text
// (shared by all prompts) and lines drawn at random (with repetition) up to
// round((input_len - base) / avg) lines in all, where `base` is the
// instruction's length and `avg` a line's mean length; a draw longer than
// input_len tokens is drawn again. Lengths are the counter's tokens of the
// text as sent (vLLM counts its chat-templated form: a few tokens more).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "load/token_counter.h"
#include "load/workload.h"

namespace cuprobe {

struct SonnetSpec {
  std::int64_t input_len = 550;   // --sonnet-input-len
  std::int64_t output_len = 150;  // --sonnet-output-len
  std::int64_t prefix_len = 200;  // --sonnet-prefix-len
  std::uint64_t count = 1000;
  std::uint64_t seed = 0;
};

inline constexpr const char* kSonnetInstruction = "Pick as many lines as you can from these poem lines:\n";

// The lines (each with its "\n") of `path`, or of the bundled text when `path`
// is empty. Throws InputError for a file that cannot be read or has no line.
std::vector<std::string> sonnet_lines(const std::string& path);

// Throws cuprobe::Error (exit 2) for lengths < 1, a prefix longer than the
// input, an input no longer than the instruction, or (exit 1) when no draw
// fits input_len after many tries.
std::vector<Conversation> sonnet_dataset(const std::vector<std::string>& lines, const SonnetSpec& spec,
                                         TokenCounter& counter);

}  // namespace cuprobe
