// Generated workloads, as the peers generate them, with lengths in the
// counter's tokens: `random` (every request's input and output length drawn
// uniformly from a range around the configured length, by vLLM's rule or
// SGLang's, after an optional prefix shared by all requests),
// `shared-prefix` (SGLang's generated-shared-prefix: groups of requests that
// share a system prompt, each with its own question) and `prefix_repetition`
// (vLLM's: a few prefixes, each repeated with its own suffixes). Same seed,
// same settings and same counter → the same requests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "load/token_counter.h"
#include "load/workload.h"

namespace cuprobe {

// How --random-range-ratio r widens a length: vLLM's `random` draws from
// [floor(len*(1-r)), ceil(len*(1+r))] with r in [0, 1); SGLang's
// (compute_random_lens) from [max(int(len*r), 1), len] with r in [0, 1].
enum class RangeRule { kVllm, kSglang };

struct RandomSpec {
  std::int64_t input_len = 1024;
  std::int64_t output_len = 128;
  std::int64_t prefix_len = 0;  // --random-prefix-len: tokens before every prompt, the same for all
  double range_ratio = 0;
  RangeRule rule = RangeRule::kVllm;
  std::uint64_t count = 1000;
  std::uint64_t seed = 0;
};

struct LengthRange {
  std::int64_t low = 0, high = 0;
};
// The interval a length is drawn from, at least 1.
LengthRange length_range(std::int64_t len, double range_ratio, RangeRule rule = RangeRule::kVllm);
const char* range_rule_name(RangeRule rule);  // "vllm" / "sglang"

// Throws cuprobe::Error (exit 2) for lengths < 1, a prefix < 0 or a ratio
// outside the rule's interval.
void check_random_spec(const RandomSpec& spec);
// Each prompt: the shared prefix (prefix_len tokens), a space, then its own
// text of a drawn length; expected_prompt_tokens is the sum of the two.
std::vector<Conversation> random_dataset(const RandomSpec& spec, TokenCounter& counter);

struct SharedPrefixSpec {
  std::int64_t groups = 64;
  std::int64_t prompts_per_group = 16;
  std::int64_t system_prompt_len = 2048;
  std::int64_t question_len = 128;
  std::int64_t output_len = 256;
  double range_ratio = 1.0;  // --gsp-range-ratio, SGLang's rule: 1 = every length exact
  std::uint64_t seed = 0;
};

void check_shared_prefix_spec(const SharedPrefixSpec& spec);
// groups × prompts_per_group requests, "SYSTEM\n\nQUESTION", shuffled with the
// seed; with a range ratio below 1, each group's system prompt, each question
// and each output length are drawn by SGLang's rule.
std::vector<Conversation> shared_prefix_dataset(const SharedPrefixSpec& spec, TokenCounter& counter);

struct PrefixRepetitionSpec {
  std::int64_t prefix_len = 256;
  std::int64_t suffix_len = 256;
  std::int64_t num_prefixes = 10;
  std::int64_t output_len = 128;
  std::uint64_t requests = 1000;  // --num-prompts: num_prefixes × (requests / num_prefixes) are made
  std::uint64_t seed = 0;
};

void check_prefix_repetition_spec(const PrefixRepetitionSpec& spec);
// vLLM's prefix_repetition: num_prefixes prefixes of prefix_len tokens, each
// followed by requests / num_prefixes suffixes of suffix_len tokens of its
// own ("PREFIX SUFFIX"), shuffled with the seed.
std::vector<Conversation> prefix_repetition_dataset(const PrefixRepetitionSpec& spec, TokenCounter& counter);

}  // namespace cuprobe
