// Generated workloads, as the peers generate them, with lengths in the
// counter's tokens: `random` (vLLM's random dataset: every request's input and
// output length drawn uniformly from [len*(1-r), len*(1+r)]) and
// `shared-prefix` (SGLang's generated-shared-prefix: groups of requests that
// share a system prompt, each with its own question). Same seed, same settings
// and same counter → the same requests.
#pragma once

#include <cstdint>
#include <vector>

#include "load/token_counter.h"
#include "load/workload.h"

namespace cuprobe {

struct RandomSpec {
  std::int64_t input_len = 1024;
  std::int64_t output_len = 128;
  double range_ratio = 0;  // [0, 1)
  std::uint64_t count = 1000;
  std::uint64_t seed = 0;
};

struct LengthRange {
  std::int64_t low = 0, high = 0;
};
// vLLM's interval: [floor(len*(1-r)), ceil(len*(1+r))], at least 1.
LengthRange length_range(std::int64_t len, double range_ratio);

// Throws cuprobe::Error (exit 2) for lengths < 1 or a ratio outside [0, 1).
void check_random_spec(const RandomSpec& spec);
std::vector<Conversation> random_dataset(const RandomSpec& spec, TokenCounter& counter);

struct SharedPrefixSpec {
  std::int64_t groups = 64;
  std::int64_t prompts_per_group = 16;
  std::int64_t system_prompt_len = 2048;
  std::int64_t question_len = 128;
  std::int64_t output_len = 256;
  std::uint64_t seed = 0;
};

void check_shared_prefix_spec(const SharedPrefixSpec& spec);
// groups × prompts_per_group requests, "SYSTEM\n\nQUESTION", shuffled with the seed.
std::vector<Conversation> shared_prefix_dataset(const SharedPrefixSpec& spec, TokenCounter& counter);

}  // namespace cuprobe
