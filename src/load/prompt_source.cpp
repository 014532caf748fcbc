#include "load/prompt_source.h"

#include <fstream>
#include <random>

#include "common/error.h"

namespace cuprobe {
namespace {

// Short, common words: one token each in the GPT/Llama/Qwen vocabularies.
constexpr const char* kWords[] = {
    "the",  "of",   "and",   "to",    "in",    "is",    "it",   "you",   "that",   "he",   "was",  "for",   "on",
    "are",  "as",   "with",  "his",   "they",  "at",    "be",   "this",  "have",   "from", "or",   "one",   "had",
    "by",   "word", "but",   "not",   "what",  "all",   "were", "we",    "when",   "your", "can",  "said",  "there",
    "use",  "an",   "each",  "which", "she",   "do",    "how",  "their", "if",     "will", "up",   "other", "about",
    "out",  "many", "then",  "them",  "these", "so",    "some", "her",   "would",  "make", "like", "him",   "into",
    "time", "has",  "look",  "two",   "more",  "write", "go",   "see",   "number", "no",   "way",  "could", "people",
    "my",   "than", "first", "water", "been",  "call",  "who",  "oil",   "its",    "now",  "find", "long",  "down",
    "day",  "did",  "get",   "come",  "made",  "may",   "part"};

class SyntheticPrompts final : public PromptSource {
 public:
  SyntheticPrompts(std::int64_t input_len, std::int64_t output_len, std::uint64_t seed)
      : input_len_(input_len), output_len_(output_len), seed_(seed) {}

  Prompt prompt(std::uint64_t index) const override {
    std::mt19937_64 rng(seed_ * 0x9E3779B97F4A7C15ull + index);
    std::uniform_int_distribution<std::size_t> pick(0, std::size(kWords) - 1);
    Prompt p;
    p.text.reserve(static_cast<std::size_t>(input_len_) * 6);
    for (std::int64_t i = 0; i < input_len_; ++i) {
      if (i) p.text += ' ';
      p.text += kWords[pick(rng)];
    }
    p.max_tokens = output_len_;
    p.expected_prompt_tokens = input_len_;
    return p;
  }

  std::string describe() const override {
    return "synthetic, " + std::to_string(input_len_) + " words in, " + std::to_string(output_len_) + " tokens out";
  }

 private:
  std::int64_t input_len_, output_len_;
  std::uint64_t seed_;
};

class DatasetPrompts final : public PromptSource {
 public:
  DatasetPrompts(std::string path, std::vector<Prompt> prompts)
      : path_(std::move(path)), prompts_(std::move(prompts)) {}
  Prompt prompt(std::uint64_t index) const override { return prompts_[index % prompts_.size()]; }
  std::string describe() const override {
    return "dataset " + path_ + " (" + std::to_string(prompts_.size()) + " prompts)";
  }

 private:
  std::string path_;
  std::vector<Prompt> prompts_;
};

}  // namespace

std::unique_ptr<PromptSource> synthetic_prompts(std::int64_t input_len, std::int64_t output_len, std::uint64_t seed) {
  if (input_len < 1) throw Error("--input-len must be at least 1", kExitUsage);
  if (output_len < 1) throw Error("--output-len must be at least 1", kExitUsage);
  return std::make_unique<SyntheticPrompts>(input_len, output_len, seed);
}

std::unique_ptr<PromptSource> dataset_prompts(const std::string& path, std::int64_t default_output_len) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "cannot open the dataset");
  std::vector<Prompt> prompts;
  std::string line;
  long long line_no = 0;
  auto bad = [&](const std::string& why) { return Error(path + ": line " + std::to_string(line_no) + ": " + why); };
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json doc = nlohmann::json::parse(line, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) throw bad("not a JSON object");
    Prompt p;
    p.max_tokens = default_output_len;
    if (auto it = doc.find("prompt"); it != doc.end()) {
      if (!it->is_string() || it->get_ref<const std::string&>().empty())
        throw bad("\"prompt\" must be a non-empty string");
      p.text = it->get<std::string>();
    } else if (auto m = doc.find("messages"); m != doc.end()) {
      if (!m->is_array() || m->empty()) throw bad("\"messages\" must be a non-empty array");
      for (const auto& msg : *m) {
        if (!msg.is_object() || !msg.contains("role") || !msg.contains("content")) {
          throw bad("each message needs \"role\" and \"content\"");
        }
      }
      p.messages = *m;
    } else {
      throw bad("needs \"prompt\" or \"messages\"");
    }
    for (const char* key : {"max_tokens", "output_len"}) {
      if (auto it = doc.find(key); it != doc.end()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 1) {
          throw bad(std::string("\"") + key + "\" must be a positive integer");
        }
        p.max_tokens = it->get<std::int64_t>();
      }
    }
    prompts.push_back(std::move(p));
  }
  if (prompts.empty()) throw InputError(path, "the dataset has no prompts");
  return std::make_unique<DatasetPrompts>(path, std::move(prompts));
}

}  // namespace cuprobe
