#include "load/dataset_sonnet.h"

#include <cmath>
#include <random>
#include <sstream>

#include "common/error.h"
#include "load/dataset_file.h"
#include "load/dataset_text.h"
#include "load/sonnet_text.h"

namespace cuprobe {
namespace {

// Python's round(): halves to even (the default floating-point rounding mode).
std::int64_t round_half_even(double x) { return static_cast<std::int64_t>(std::nearbyint(x)); }

}  // namespace

std::vector<std::string> sonnet_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::string line;
  if (path.empty()) {
    std::istringstream in{std::string(sonnet_text())};
    while (std::getline(in, line)) lines.push_back(line + "\n");
  } else {
    DatasetFile in(path);  // bounded; a device refused, a FIFO read as it comes
    for (std::uint64_t at = 0; in.next_line(line, at);) lines.push_back(line + "\n");
  }
  if (lines.empty()) throw InputError(path.empty() ? "bundled sonnet text" : path, "has no lines");
  return lines;
}

std::vector<Conversation> sonnet_dataset(const std::vector<std::string>& lines, const SonnetSpec& spec,
                                         TokenCounter& counter) {
  if (spec.input_len < 1 || spec.output_len < 1 || spec.prefix_len < 0) {
    throw Error("--sonnet-input-len and --sonnet-output-len must be at least 1, --sonnet-prefix-len at least 0",
                kExitUsage);
  }
  if (spec.prefix_len > spec.input_len) {
    throw Error("--sonnet-prefix-len must not exceed --sonnet-input-len", kExitUsage);
  }
  if (spec.input_len > kMaxDatasetTokens) {
    throw Error("--sonnet-input-len " + std::to_string(spec.input_len) + " is over the limit of " +
                    std::to_string(kMaxDatasetTokens) + " tokens",
                kExitUsage);
  }
  std::vector<std::int64_t> line_tokens = count_all(counter, lines);
  double total = 0;
  for (std::int64_t t : line_tokens) total += static_cast<double>(t);
  double avg = total / static_cast<double>(lines.size());
  if (avg < 1) {  // lines of (almost) nothing: the prompt would need without bound many of them
    throw Error("sonnet: the text's " + std::to_string(lines.size()) + " lines hold " +
                    std::to_string(static_cast<long long>(total)) +
                    " tokens, less than one a line: give a text with words (--dataset-path)",
                kExitUsage);
  }
  std::int64_t base = counter.count(kSonnetInstruction);
  if (spec.input_len <= base) {
    throw Error("--sonnet-input-len must be higher than the instruction's length (" + std::to_string(base) + " tokens)",
                kExitUsage);
  }
  std::int64_t input_lines = round_half_even(static_cast<double>(spec.input_len - base) / avg);
  std::int64_t prefix_lines =
      std::max<std::int64_t>(round_half_even(static_cast<double>(spec.prefix_len - base) / avg), 0);
  prefix_lines = std::min<std::int64_t>(prefix_lines, static_cast<std::int64_t>(lines.size()));
  std::string prefix = kSonnetInstruction;
  for (std::int64_t i = 0; i < prefix_lines; ++i) prefix += lines[static_cast<std::size_t>(i)];
  std::int64_t drawn = std::max<std::int64_t>(input_lines - prefix_lines, 0);

  std::mt19937_64 rng(spec.seed);
  std::uniform_int_distribution<std::size_t> pick(0, lines.size() - 1);
  std::vector<Conversation> conversations;
  conversations.reserve(spec.count);
  // Draws are made in order and counted a batch at a time (in parallel with a
  // server's /tokenize); the first that fit are kept, in draw order.
  const std::uint64_t max_draws = 50 * spec.count + 1000;
  std::uint64_t draws = 0;
  std::int64_t shortest = -1;
  while (conversations.size() < spec.count) {
    if (draws >= max_draws) {
      throw Error("sonnet: only " + std::to_string(conversations.size()) + " of " + std::to_string(draws) +
                  " draws of " + std::to_string(prefix_lines + drawn) + " lines fit --sonnet-input-len " +
                  std::to_string(spec.input_len) + " (the shortest came to " + std::to_string(shortest) +
                  " tokens); raise it or lower --sonnet-prefix-len");
    }
    std::size_t batch =
        static_cast<std::size_t>(std::min<std::uint64_t>(spec.count - conversations.size(), max_draws - draws));
    std::vector<std::string> prompts(batch, prefix);
    for (std::string& p : prompts) {
      for (std::int64_t k = 0; k < drawn; ++k) p += lines[pick(rng)];
    }
    draws += batch;
    std::vector<std::int64_t> counts = count_all(counter, prompts);
    for (std::size_t i = 0; i < batch && conversations.size() < spec.count; ++i) {
      if (shortest < 0 || counts[i] < shortest) shortest = counts[i];
      if (counts[i] > spec.input_len) continue;
      Prompt p;
      p.text = std::move(prompts[i]);
      p.max_tokens = spec.output_len;
      p.expected_prompt_tokens = counts[i];
      conversations.push_back(Conversation{{std::move(p)}});
    }
  }
  return conversations;
}

}  // namespace cuprobe
