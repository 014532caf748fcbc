// Where bench prompts come from: synthetic text of a given length, or a JSONL
// dataset (one request per line). Every request index maps to one prompt.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "load/dataset_file.h"

namespace cuprobe {

struct Prompt {
  std::string text;         // completions / generate prompt; chat: the user message when messages is null
  nlohmann::json messages;  // chat messages from a dataset, or null
  std::int64_t max_tokens = 0;
  std::int64_t expected_prompt_tokens = -1;  // what the synthetic prompt was built for; -1 unknown
};

class PromptSource {
 public:
  virtual ~PromptSource() = default;
  virtual Prompt prompt(std::uint64_t index) const = 0;
  virtual std::string describe() const = 0;
};

// input_len words drawn from a list of common one-token English words, different
// for every request (no shared prefix for a prefix cache to hit), seeded.
std::unique_ptr<PromptSource> synthetic_prompts(std::int64_t input_len, std::int64_t output_len, std::uint64_t seed);

// JSONL: {"prompt": "..."} or {"messages": [...]}, optional "max_tokens" / "output_len".
// Lines without one use default_output_len. Throws InputError (FILE: byte B: line N: reason),
// also over max_bytes (load/dataset_file.h).
std::unique_ptr<PromptSource> dataset_prompts(const std::string& path, std::int64_t default_output_len,
                                              std::uint64_t max_bytes = kDefaultDatasetMaxBytes);
// The same file's prompts, in file order.
std::vector<Prompt> read_jsonl_prompts(const std::string& path, std::int64_t default_output_len,
                                       std::uint64_t max_bytes = kDefaultDatasetMaxBytes);

}  // namespace cuprobe
