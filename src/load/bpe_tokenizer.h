// Counting tokens with a Hugging Face tokenizer.json of a byte-level BPE model
// (GPT-2, Llama 3, Qwen 2, DeepSeek V3 and their kin), without the server.
// The pre-tokenizer's split is written by hand for the patterns these models
// use (GPT-2's; Llama 3's, digits in runs of up to three; Qwen 2's, one digit),
// on Unicode's letters and numbers (load/unicode_classes.h), so the ids are the
// library's token for token, non-ASCII text included (tests/data/bpe/ids.json).
// Added (special) tokens are not matched: the count is the text's own, as
// add_special_tokens=false gives it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "load/token_counter.h"

namespace cuprobe {

enum class SplitPattern { kGpt2, kLlama3, kQwen2 };

// The pre-tokens of `text` (its bytes split as the pattern splits them).
std::vector<std::string> pretokenize(const std::string& text, SplitPattern pattern);

class BpeTokenCounter final : public TokenCounter {
 public:
  // Throws InputError (FILE: reason) for a file that is not a byte-level BPE tokenizer.json.
  static std::unique_ptr<BpeTokenCounter> load(const std::string& path);
  std::int64_t count(const std::string& text) override;
  // The token ids of `text` (add_special_tokens=false); -1 for a piece the vocabulary lacks.
  std::vector<std::int64_t> encode(const std::string& text);
  std::string method() const override { return "tokenizer " + path_; }
  SplitPattern pattern() const { return pattern_; }

 private:
  const std::vector<std::int64_t>& encode_word(const std::string& word);

  std::string path_;
  SplitPattern pattern_ = SplitPattern::kGpt2;
  bool add_prefix_space_ = false;
  bool ignore_merges_ = false;
  std::unordered_map<std::string, std::int64_t> vocab_;
  std::unordered_map<std::string, std::int64_t> ranks_;               // "left right" → merge rank
  std::unordered_map<std::string, std::vector<std::int64_t>> cache_;  // pre-token → ids
  std::string byte_chars_[256];                                       // GPT-2's bytes_to_unicode, as UTF-8
};

}  // namespace cuprobe
