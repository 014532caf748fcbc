#include "load/dataset_sharegpt.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "common/error.h"
#include "load/dataset_file.h"

namespace cuprobe {
namespace {

constexpr std::int64_t kMinLen = 4, kMaxPrompt = 1024, kMaxTotal = 2048;

// "human"/"user" → user, "gpt"/"assistant"/"chatgpt"/"bard"/"bing" → assistant, "system" → system; else "".
std::string role_of(const std::string& from) {
  if (from == "human" || from == "user") return "user";
  if (from == "gpt" || from == "assistant" || from == "chatgpt" || from == "bard" || from == "bing") {
    return "assistant";
  }
  if (from == "system") return "system";
  return "";
}

// The entry's messages from its first human turn on (its strings moved out of it); null when it has no human turn
// with a reply.
nlohmann::json chat_of(nlohmann::json& entry) {
  if (!entry.is_object()) return nullptr;
  auto it = entry.find("conversations");
  if (it == entry.end() || !it->is_array()) return nullptr;
  nlohmann::json messages = nlohmann::json::array();
  for (auto& turn : *it) {
    if (!turn.is_object()) return nullptr;
    auto from = turn.find("from");
    auto value = turn.find("value");
    if (from == turn.end() || value == turn.end() || !from->is_string() || !value->is_string()) return nullptr;
    std::string role = role_of(from->get<std::string>());
    if (role.empty()) return nullptr;
    if (messages.empty() && role == "assistant") continue;  // a reply before any question
    messages.push_back({{"role", role}, {"content", std::move(value->get_ref<std::string&>())}});
  }
  // Usable when the first user message has its reply.
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (messages[i]["role"] == "user") {
      return i + 1 < messages.size() && messages[i + 1]["role"] == "assistant" ? messages : nlohmann::json();
    }
  }
  return nullptr;
}

// The reply to each user message, by position (empty when there is none).
std::vector<std::string> replies(const nlohmann::json& messages) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (messages[i]["role"] != "user") continue;
    bool answered = i + 1 < messages.size() && messages[i + 1]["role"] == "assistant";
    out.push_back(answered ? messages[i + 1]["content"].get<std::string>() : std::string());
  }
  return out;
}

}  // namespace

ShareGptFile read_sharegpt(const std::string& path, std::uint64_t max_bytes) {
  nlohmann::json doc = DatasetFile(path, max_bytes).parse_json();
  if (!doc.is_array()) {
    throw InputError(path, 0, "a ShareGPT file is a JSON array of {\"conversations\": [...]} entries");
  }
  ShareGptFile file;
  file.path = path;
  file.entries = doc.size();
  for (auto& entry : doc) {
    nlohmann::json chat = chat_of(entry);
    entry = nullptr;  // what was not moved into the chat goes now
    if (chat.is_null()) {
      ++file.unusable;
    } else {
      file.chats.push_back(std::make_shared<const nlohmann::json>(std::move(chat)));
    }
  }
  if (file.chats.empty()) {
    throw InputError(
        path, "no conversation has a human turn followed by a reply (" + std::to_string(file.entries) + " entries)");
  }
  return file;
}

ShareGptSelection select_sharegpt(const ShareGptFile& file, const ShareGptSpec& spec, TokenCounter& counter) {
  std::vector<std::size_t> order(file.chats.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 rng(spec.seed);
  std::shuffle(order.begin(), order.end(), rng);
  bool fixed = spec.fixed_output_len > 0;
  ShareGptSelection sel;
  for (std::size_t i : order) {
    if (sel.conversations.size() >= spec.count) break;
    ++sel.checked;
    std::vector<std::string> answers = replies(*file.chats[i]);
    Conversation c = split_turns(file.chats[i], 0);
    if (!spec.multi_turn) c.keep(1);
    // The first turn alone is the prompt (history before it is only a system message).
    std::int64_t prompt_len = counter.count(c.turn(0).text);
    std::int64_t output_len = fixed ? spec.fixed_output_len : counter.count(answers[0]);
    if (prompt_len < kMinLen || (!fixed && output_len < kMinLen)) {
      ++sel.too_short;
      continue;
    }
    if (prompt_len > kMaxPrompt || prompt_len + output_len > kMaxTotal) {
      ++sel.too_long;
      continue;
    }
    c.turns[0].max_tokens = output_len;
    c.turns[0].expected_prompt_tokens = prompt_len;
    for (std::size_t t = 1; t < c.turns.size(); ++t) {
      c.turns[t].max_tokens = fixed ? spec.fixed_output_len : std::max<std::int64_t>(1, counter.count(answers[t]));
    }
    // A last question without a reply has no output length to take: it is left out.
    if (!fixed && c.turns.size() > 1 && answers[c.turns.size() - 1].empty()) c.keep(c.turns.size() - 1);
    sel.conversations.push_back(std::move(c));
  }
  return sel;
}

}  // namespace cuprobe
