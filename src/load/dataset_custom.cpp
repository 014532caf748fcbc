#include "load/dataset_custom.h"

#include <algorithm>
#include <random>

#include "common/error.h"
#include "load/jsonl_lines.h"

namespace cuprobe {

std::vector<CustomLine> read_custom_jsonl(const std::string& path) {
  std::vector<CustomLine> lines;
  for_each_jsonl_object(path, [&](const nlohmann::json& doc, long long line) {
    auto prompt = doc.find("prompt");
    if (prompt == doc.end() || !prompt->is_string() || prompt->get_ref<const std::string&>().empty()) {
      throw jsonl_line_error(path, line, "needs \"prompt\", a non-empty string");
    }
    lines.push_back(CustomLine{prompt->get<std::string>(), jsonl_int(doc, "output_tokens", -1, 1, path, line), line});
  });
  if (lines.empty()) throw InputError(path, "the dataset has no prompts");
  return lines;
}

std::vector<Conversation> custom_dataset(const std::vector<CustomLine>& lines, const CustomSpec& spec,
                                         const std::string& path) {
  if (spec.output_len == 0 || spec.output_len < -1) {
    throw Error("--custom-output-len must be positive, or -1 for each line's \"output_tokens\"", kExitUsage);
  }
  std::vector<const CustomLine*> order;
  for (const CustomLine& l : lines) order.push_back(&l);
  if (spec.shuffle) std::shuffle(order.begin(), order.end(), std::mt19937_64(spec.seed));
  std::size_t wanted = spec.count > 0 ? spec.count : order.size();
  if (order.size() > wanted) order.resize(wanted);
  std::vector<Conversation> conversations;
  for (const CustomLine* l : order) {
    if (spec.output_len == -1 && l->output_tokens < 0) {
      throw jsonl_line_error(path, l->line, "has no \"output_tokens\", which --custom-output-len -1 asks for");
    }
    Prompt p;
    p.text = l->prompt;
    p.max_tokens = spec.output_len == -1 ? l->output_tokens : spec.output_len;
    conversations.push_back(Conversation{{std::move(p)}});
  }
  if (spec.oversample && conversations.size() < wanted) {
    std::mt19937_64 rng(spec.seed);
    std::uniform_int_distribution<std::size_t> pick(0, conversations.size() - 1);
    while (conversations.size() < wanted) {
      Conversation copy = conversations[pick(rng)];  // a copy: push_back may move the vector
      conversations.push_back(std::move(copy));
    }
  }
  return conversations;
}

}  // namespace cuprobe
