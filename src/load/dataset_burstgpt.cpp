#include "load/dataset_burstgpt.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <random>

#include "common/error.h"
#include "load/dataset_file.h"
#include "load/dataset_text.h"

namespace cuprobe {
namespace {

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '"') {
      if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r' || quoted) {
      fields.back() += c;
    }
  }
  return fields;
}

std::size_t column(const std::vector<std::string>& header, const char* name, const std::string& path) {
  auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) {
    throw InputError(path, std::string("line 1: no \"") + name + "\" column (BurstGPT's CSV header: " +
                               "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type)");
  }
  return static_cast<std::size_t>(it - header.begin());
}

// Token counts are integers; pandas-written files may say "12.0".
bool parse_count(const std::string& text, std::int64_t& out) {
  std::string t = text;
  if (auto dot = t.find('.'); dot != std::string::npos && t.find_first_not_of('0', dot + 1) == std::string::npos)
    t.resize(dot);
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && end == t.data() + t.size() && !t.empty() && out >= 0;
}

}  // namespace

BurstGptFile read_burstgpt(const std::string& path) {
  DatasetFile in(path);  // bounded; a device refused, a FIFO read as it comes
  std::string line;
  std::uint64_t at = 0;
  if (!in.next_line(line, at)) throw InputError(path, "empty file (BurstGPT's CSV has a header line)");
  if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
  std::vector<std::string> header = split_csv(line);
  std::size_t model = column(header, "Model", path);
  std::size_t request = column(header, "Request tokens", path);
  std::size_t response = column(header, "Response tokens", path);
  BurstGptFile file;
  long long line_no = 1;
  while (in.next_line(line, at)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::vector<std::string> fields = split_csv(line);
    auto bad = [&](const std::string& why) { return InputError(path, "line " + std::to_string(line_no) + ": " + why); };
    if (fields.size() != header.size()) {
      throw bad(std::to_string(fields.size()) + " fields where the header has " + std::to_string(header.size()));
    }
    BurstGptRow row;
    if (!parse_count(fields[request], row.request_tokens)) throw bad("Request tokens is not a non-negative integer");
    if (!parse_count(fields[response], row.response_tokens)) throw bad("Response tokens is not a non-negative integer");
    for (auto [value, name] :
         {std::pair{row.request_tokens, "Request tokens"}, {row.response_tokens, "Response tokens"}}) {
      if (value > kMaxDatasetTokens) {  // each becomes a prompt or a max_tokens: bounded before anything is made
        throw bad(std::string(name) + " " + std::to_string(value) + " is over the limit of " +
                  std::to_string(kMaxDatasetTokens) + " tokens");
      }
    }
    ++file.lines;
    if (fields[model] != "GPT-4") {
      ++file.other_models;
    } else if (row.response_tokens <= 0) {
      ++file.failed;
    } else {
      file.rows.push_back(row);
    }
  }
  if (file.rows.empty()) {
    throw InputError(path, "no GPT-4 row with a positive Response tokens (of " + std::to_string(file.lines) +
                               " rows: " + std::to_string(file.other_models) + " of other models, " +
                               std::to_string(file.failed) + " failed)");
  }
  return file;
}

std::vector<Conversation> burstgpt_dataset(const BurstGptFile& file, std::uint64_t count, std::uint64_t seed,
                                           TokenCounter& counter) {
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> picked;
  if (count <= file.rows.size()) {  // without replacement: a seeded partial shuffle
    std::vector<std::size_t> order(file.rows.size());
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t i = 0; i < count; ++i) {
      std::size_t j = std::uniform_int_distribution<std::size_t>(i, order.size() - 1)(rng);
      std::swap(order[i], order[j]);
    }
    picked.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count));
  } else {
    std::uniform_int_distribution<std::size_t> pick(0, file.rows.size() - 1);
    for (std::uint64_t i = 0; i < count; ++i) picked.push_back(pick(rng));
  }
  std::vector<FitJob> jobs(picked.size());
  for (std::size_t i = 0; i < picked.size(); ++i) {
    jobs[i].stream = text_stream(seed, kBurstGptPrompt, i);
    jobs[i].target = std::max<std::int64_t>(1, file.rows[picked[i]].request_tokens);
  }
  fit_all(counter, jobs);
  std::vector<Conversation> conversations;
  conversations.reserve(picked.size());
  for (std::size_t i = 0; i < picked.size(); ++i) {
    Prompt p;
    p.text = std::move(jobs[i].fitted.text);
    p.max_tokens = file.rows[picked[i]].response_tokens;
    p.expected_prompt_tokens = jobs[i].fitted.tokens;
    conversations.push_back(Conversation{{std::move(p)}});
  }
  return conversations;
}

}  // namespace cuprobe
