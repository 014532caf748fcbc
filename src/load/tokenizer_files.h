// What --tokenizer names, found without the network: a tokenizer file
// (tokenizer.json, or a SentencePiece tokenizer.model), a model directory, or
// a Hugging Face model id (ORG/NAME) in the local Hugging Face cache
// ($HF_HUB_CACHE, $HF_HOME/hub, ~/.cache/huggingface/hub: the snapshot that
// models--ORG--NAME/refs/main names). In a directory a byte-level BPE
// tokenizer.json is read (Llama 3, Qwen 2, DeepSeek, GPT-2); otherwise its
// tokenizer.model through SentencePiece (Llama 2, Mistral, Gemma, whose
// tokenizer.json is not byte-level).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "load/token_counter.h"

namespace cuprobe {

// The Hugging Face cache folders to look in, in order, from the environment.
std::vector<std::string> hf_cache_dirs();

// The snapshot directory of `model_id` in the first cache that holds it;
// "" when none does.
std::string hf_snapshot_dir(const std::string& model_id, const std::vector<std::string>& caches);

// The counter for --tokenizer `spec`. Throws cuprobe::Error (one line, with
// where it looked) when nothing is found, InputError for a file that is not a
// tokenizer cuprobe reads.
std::unique_ptr<TokenCounter> load_tokenizer(const std::string& spec);

}  // namespace cuprobe
