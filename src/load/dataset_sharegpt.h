// ShareGPT conversations as bench requests, the way vLLM's ShareGPT dataset
// takes them: a JSON array of {"conversations": [{"from": "human"|"gpt", "value": "..."}, ...]};
// the first human turn is the prompt and the reply's length (in the counter's
// tokens) the output length, unless a fixed one is given. vLLM's filter:
// prompts under 4 tokens, replies under 4 (when the output length is not fixed),
// prompts over 1024 or prompt + output over 2048 are dropped.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "load/dataset_file.h"
#include "load/token_counter.h"
#include "load/workload.h"

namespace cuprobe {

struct ShareGptFile {
  std::string path;
  // OpenAI messages (role user/assistant/system), each with a user turn and a reply; shared with the turns cut
  // from them (load/workload.h)
  std::vector<std::shared_ptr<const nlohmann::json>> chats;
  std::uint64_t entries = 0;   // entries in the file
  std::uint64_t unusable = 0;  // entries without a human turn and its reply, or with mistyped fields
};

// Throws InputError ("FILE: byte N: reason") when the file is not JSON or not
// an array, or over max_bytes (load/dataset_file.h); entries with mistyped
// fields are counted, not fatal. Memory is linear in the file.
ShareGptFile read_sharegpt(const std::string& path, std::uint64_t max_bytes = kDefaultDatasetMaxBytes);

struct ShareGptSpec {
  std::uint64_t count = 1000;
  std::int64_t fixed_output_len = 0;  // 0: the reply's length
  bool multi_turn = false;            // every human turn of a conversation, in order (a session)
  std::uint64_t seed = 0;
};

struct ShareGptSelection {
  std::vector<Conversation> conversations;
  std::uint64_t checked = 0, too_short = 0, too_long = 0;
};

// Shuffles the chats with the seed and takes the first `count` that pass the
// filter (the first turn's lengths decide for a multi-turn conversation).
ShareGptSelection select_sharegpt(const ShareGptFile& file, const ShareGptSpec& spec, TokenCounter& counter);

}  // namespace cuprobe
