#include "load/dataset_random.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "common/error.h"
#include "load/dataset_text.h"

namespace cuprobe {
namespace {

// Independent word streams for every piece of text of one workload.
std::uint64_t stream_of(std::uint64_t seed, std::uint64_t kind, std::uint64_t index) {
  return (seed * 0x9E3779B97F4A7C15ull) ^ (kind << 56) ^ (index * 0xBF58476D1CE4E5B9ull + 1);
}

std::int64_t draw(std::mt19937_64& rng, const LengthRange& r) {
  return std::uniform_int_distribution<std::int64_t>(r.low, r.high)(rng);
}

}  // namespace

LengthRange length_range(std::int64_t len, double range_ratio) {
  LengthRange r;
  r.low = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(len * (1 - range_ratio))));
  r.high = std::max<std::int64_t>(r.low, static_cast<std::int64_t>(std::ceil(len * (1 + range_ratio))));
  return r;
}

void check_random_spec(const RandomSpec& spec) {
  if (spec.input_len < 1) throw Error("--random-input-len must be at least 1", kExitUsage);
  if (spec.output_len < 1) throw Error("--random-output-len must be at least 1", kExitUsage);
  if (!(spec.range_ratio >= 0 && spec.range_ratio < 1)) {
    throw Error("--random-range-ratio must be within [0, 1)", kExitUsage);
  }
  if (spec.count < 1) throw Error("--num-prompts must be at least 1", kExitUsage);
}

std::vector<Conversation> random_dataset(const RandomSpec& spec, TokenCounter& counter) {
  check_random_spec(spec);
  std::mt19937_64 rng(spec.seed);
  LengthRange in = length_range(spec.input_len, spec.range_ratio);
  LengthRange out = length_range(spec.output_len, spec.range_ratio);
  std::vector<std::int64_t> outputs(spec.count);
  std::vector<FitJob> jobs(spec.count);
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    jobs[i].stream = stream_of(spec.seed, 1, i);
    jobs[i].target = draw(rng, in);
    outputs[i] = draw(rng, out);
  }
  fit_all(counter, jobs);
  std::vector<Conversation> conversations(spec.count);
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    Prompt p;
    p.text = std::move(jobs[i].fitted.text);
    p.max_tokens = outputs[i];
    p.expected_prompt_tokens = jobs[i].fitted.tokens;
    conversations[i].turns.push_back(std::move(p));
  }
  return conversations;
}

void check_shared_prefix_spec(const SharedPrefixSpec& spec) {
  if (spec.groups < 1 || spec.prompts_per_group < 1 || spec.system_prompt_len < 1 || spec.question_len < 1 ||
      spec.output_len < 1) {
    throw Error("--gsp-num-groups, --gsp-prompts-per-group and the --gsp-*-len options must be at least 1", kExitUsage);
  }
}

std::vector<Conversation> shared_prefix_dataset(const SharedPrefixSpec& spec, TokenCounter& counter) {
  check_shared_prefix_spec(spec);
  auto groups = static_cast<std::size_t>(spec.groups);
  auto per_group = static_cast<std::size_t>(spec.prompts_per_group);
  std::vector<FitJob> jobs(groups + groups * per_group);  // system prompts, then questions
  for (std::size_t g = 0; g < groups; ++g) jobs[g] = FitJob{stream_of(spec.seed, 2, g), spec.system_prompt_len, {}};
  for (std::size_t n = 0; n < groups * per_group; ++n) {
    jobs[groups + n] = FitJob{stream_of(spec.seed, 3, n), spec.question_len, {}};
  }
  fit_all(counter, jobs);
  std::vector<Conversation> conversations;
  conversations.reserve(groups * per_group);
  for (std::size_t n = 0; n < groups * per_group; ++n) {
    const FittedText& system = jobs[n / per_group].fitted;
    const FittedText& question = jobs[groups + n].fitted;
    Prompt p;
    p.text = system.text + "\n\n" + question.text;
    p.max_tokens = spec.output_len;
    p.expected_prompt_tokens = system.tokens + question.tokens;
    conversations.push_back(Conversation{{std::move(p)}});
  }
  std::mt19937_64 rng(spec.seed);
  std::shuffle(conversations.begin(), conversations.end(), rng);
  return conversations;
}

}  // namespace cuprobe
