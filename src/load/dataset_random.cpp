#include "load/dataset_random.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "common/error.h"
#include "load/dataset_text.h"

namespace cuprobe {
namespace {

std::int64_t draw(std::mt19937_64& rng, const LengthRange& r) {
  return std::uniform_int_distribution<std::int64_t>(r.low, r.high)(rng);
}

Conversation single(std::string text, std::int64_t max_tokens, std::int64_t tokens) {
  Prompt p;
  p.text = std::move(text);
  p.max_tokens = max_tokens;
  p.expected_prompt_tokens = tokens;
  return Conversation{{std::move(p)}};
}

// jobs: `heads` shared texts, then heads × per_head texts of their own; request
// n is head n / per_head, `sep`, text n, asking for outputs[n]; shuffled with the seed.
std::vector<Conversation> grouped(TokenCounter& counter, std::vector<FitJob>& jobs, std::size_t heads,
                                  std::size_t per_head, const char* sep, const std::vector<std::int64_t>& outputs,
                                  std::uint64_t seed) {
  fit_all(counter, jobs);
  std::vector<Conversation> conversations;
  conversations.reserve(heads * per_head);
  for (std::size_t n = 0; n < heads * per_head; ++n) {
    const FittedText& head = jobs[n / per_head].fitted;
    const FittedText& own = jobs[heads + n].fitted;
    conversations.push_back(single(head.text + sep + own.text, outputs[n], head.tokens + own.tokens));
  }
  std::mt19937_64 rng(seed);
  std::shuffle(conversations.begin(), conversations.end(), rng);
  return conversations;
}

}  // namespace

LengthRange length_range(std::int64_t len, double range_ratio, RangeRule rule) {
  LengthRange r;
  if (rule == RangeRule::kSglang) {
    r.high = std::max<std::int64_t>(1, len);
    r.low = std::clamp<std::int64_t>(static_cast<std::int64_t>(len * range_ratio), 1, r.high);
    return r;
  }
  r.low = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(len * (1 - range_ratio))));
  r.high = std::max<std::int64_t>(r.low, static_cast<std::int64_t>(std::ceil(len * (1 + range_ratio))));
  return r;
}

const char* range_rule_name(RangeRule rule) { return rule == RangeRule::kSglang ? "sglang" : "vllm"; }

void check_random_spec(const RandomSpec& spec) {
  if (spec.input_len < 1) throw Error("--random-input-len must be at least 1", kExitUsage);
  if (spec.output_len < 1) throw Error("--random-output-len must be at least 1", kExitUsage);
  if (spec.prefix_len < 0) throw Error("--random-prefix-len must not be negative", kExitUsage);
  bool sglang = spec.rule == RangeRule::kSglang;
  if (!(spec.range_ratio >= 0 && (sglang ? spec.range_ratio <= 1 : spec.range_ratio < 1))) {
    throw Error(sglang ? "--random-range-ratio must be within [0, 1] (SGLang's rule)"
                       : "--random-range-ratio must be within [0, 1) (vLLM's rule)",
                kExitUsage);
  }
  if (spec.count < 1) throw Error("--num-prompts must be at least 1", kExitUsage);
}

std::vector<Conversation> random_dataset(const RandomSpec& spec, TokenCounter& counter) {
  check_random_spec(spec);
  std::mt19937_64 rng(spec.seed);
  LengthRange in = length_range(spec.input_len, spec.range_ratio, spec.rule);
  LengthRange out = length_range(spec.output_len, spec.range_ratio, spec.rule);
  std::vector<std::int64_t> outputs(spec.count);
  std::vector<FitJob> jobs(spec.count);
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    jobs[i].stream = text_stream(spec.seed, kRandomText, i);
    jobs[i].target = draw(rng, in);
    outputs[i] = draw(rng, out);
  }
  if (spec.prefix_len > 0) jobs.push_back(FitJob{text_stream(spec.seed, kRandomPrefix, 0), spec.prefix_len, {}});
  fit_all(counter, jobs);
  std::string prefix;
  std::int64_t prefix_tokens = 0;
  if (spec.prefix_len > 0) {
    prefix = std::move(jobs.back().fitted.text) + " ";
    prefix_tokens = jobs.back().fitted.tokens;
  }
  std::vector<Conversation> conversations;
  conversations.reserve(spec.count);
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    FittedText& own = jobs[i].fitted;
    conversations.push_back(single(prefix + own.text, outputs[i], prefix_tokens + own.tokens));
  }
  return conversations;
}

void check_shared_prefix_spec(const SharedPrefixSpec& spec) {
  if (spec.groups < 1 || spec.prompts_per_group < 1 || spec.system_prompt_len < 1 || spec.question_len < 1 ||
      spec.output_len < 1) {
    throw Error("--gsp-num-groups, --gsp-prompts-per-group and the --gsp-*-len options must be at least 1", kExitUsage);
  }
  if (!(spec.range_ratio >= 0 && spec.range_ratio <= 1))
    throw Error("--gsp-range-ratio must be within [0, 1]", kExitUsage);
}

std::vector<Conversation> shared_prefix_dataset(const SharedPrefixSpec& spec, TokenCounter& counter) {
  check_shared_prefix_spec(spec);
  auto groups = static_cast<std::size_t>(spec.groups);
  auto per_group = static_cast<std::size_t>(spec.prompts_per_group);
  std::mt19937_64 lengths(spec.seed ^ 0x5BD1E995u);
  LengthRange system_range = length_range(spec.system_prompt_len, spec.range_ratio, RangeRule::kSglang);
  LengthRange question_range = length_range(spec.question_len, spec.range_ratio, RangeRule::kSglang);
  LengthRange output_range = length_range(spec.output_len, spec.range_ratio, RangeRule::kSglang);
  std::vector<FitJob> jobs(groups + groups * per_group);  // system prompts, then questions
  for (std::size_t g = 0; g < groups; ++g) jobs[g] = FitJob{text_stream(spec.seed, kSystemPrompt, g), 0, {}};
  for (std::size_t g = 0; g < groups; ++g) jobs[g].target = draw(lengths, system_range);
  std::vector<std::int64_t> outputs(groups * per_group);
  for (std::size_t n = 0; n < groups * per_group; ++n) {
    jobs[groups + n] = FitJob{text_stream(spec.seed, kQuestion, n), draw(lengths, question_range), {}};
    outputs[n] = draw(lengths, output_range);
  }
  return grouped(counter, jobs, groups, per_group, "\n\n", outputs, spec.seed);
}

void check_prefix_repetition_spec(const PrefixRepetitionSpec& spec) {
  if (spec.prefix_len < 1 || spec.suffix_len < 1 || spec.output_len < 1 || spec.num_prefixes < 1) {
    throw Error("the --prefix-repetition-* options must be at least 1", kExitUsage);
  }
  if (spec.requests < static_cast<std::uint64_t>(spec.num_prefixes)) {
    throw Error("prefix_repetition: --num-prompts (" + std::to_string(spec.requests) +
                    ") must be at least --prefix-repetition-num-prefixes (" + std::to_string(spec.num_prefixes) + ")",
                kExitUsage);
  }
}

std::vector<Conversation> prefix_repetition_dataset(const PrefixRepetitionSpec& spec, TokenCounter& counter) {
  check_prefix_repetition_spec(spec);
  auto prefixes = static_cast<std::size_t>(spec.num_prefixes);
  std::size_t per_prefix = spec.requests / prefixes;
  std::vector<FitJob> jobs(prefixes + prefixes * per_prefix);  // prefixes, then suffixes
  for (std::size_t k = 0; k < prefixes; ++k)
    jobs[k] = FitJob{text_stream(spec.seed, kRepeatedPrefix, k), spec.prefix_len, {}};
  for (std::size_t n = 0; n < prefixes * per_prefix; ++n) {
    jobs[prefixes + n] = FitJob{text_stream(spec.seed, kSuffix, n), spec.suffix_len, {}};
  }
  std::vector<std::int64_t> outputs(prefixes * per_prefix, spec.output_len);
  return grouped(counter, jobs, prefixes, per_prefix, " ", outputs, spec.seed);
}

}  // namespace cuprobe
