#include "load/prompt_source.h"

#include "common/error.h"
#include "load/dataset_file.h"
#include "load/dataset_text.h"

namespace cuprobe {
namespace {

class SyntheticPrompts final : public PromptSource {
 public:
  SyntheticPrompts(std::int64_t input_len, std::int64_t output_len, std::uint64_t seed)
      : input_len_(input_len), output_len_(output_len), seed_(seed) {}

  Prompt prompt(std::uint64_t index) const override {
    Prompt p;
    p.text = word_text(seed_ * 0x9E3779B97F4A7C15ull + index, input_len_);
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

std::unique_ptr<PromptSource> dataset_prompts(const std::string& path, std::int64_t default_output_len,
                                              std::uint64_t max_bytes) {
  return std::make_unique<DatasetPrompts>(path, read_jsonl_prompts(path, default_output_len, max_bytes));
}

std::vector<Prompt> read_jsonl_prompts(const std::string& path, std::int64_t default_output_len,
                                       std::uint64_t max_bytes) {
  DatasetFile in(path, max_bytes);
  std::vector<Prompt> prompts;
  std::string line;
  std::uint64_t line_start = 0;
  long long line_no = 0;
  auto bad = [&](const std::string& why) {
    return InputError(path, static_cast<long long>(line_start), "line " + std::to_string(line_no) + ": " + why);
  };
  while (in.next_line(line, line_start)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json doc = in.parse_line(line, line_start, line_no);
    if (!doc.is_object()) throw bad("not a JSON object (each line holds one {\"prompt\": ...} or {\"messages\": ...})");
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
  return prompts;
}

}  // namespace cuprobe
