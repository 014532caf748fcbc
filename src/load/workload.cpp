#include "load/workload.h"

#include "common/error.h"

namespace cuprobe {

std::string messages_text(const nlohmann::json& messages) {
  std::string text;
  for (const auto& m : messages) {
    if (!m.is_object() || !m.contains("content") || !m["content"].is_string()) continue;
    if (!text.empty()) text += "\n\n";
    text += m["content"].get<std::string>();
  }
  return text;
}

Conversation split_turns(std::shared_ptr<const nlohmann::json> messages, std::int64_t max_tokens) {
  Conversation c;
  for (std::size_t i = 0; i < messages->size(); ++i) {
    const nlohmann::json& m = (*messages)[i];
    if (m.is_object() && m.contains("role") && m["role"] == "user") {
      Prompt p;
      p.max_tokens = max_tokens;
      c.turns.push_back(std::move(p));
      c.ends.push_back(i + 1);
    }
  }
  c.chat = std::move(messages);
  return c;
}

Conversation split_turns(const nlohmann::json& messages, std::int64_t max_tokens) {
  return split_turns(std::make_shared<const nlohmann::json>(messages), max_tokens);
}

Prompt Conversation::turn(std::size_t k) const {
  Prompt p = turns.at(k);
  if (!chat) return p;
  p.messages = nlohmann::json::array();
  for (std::size_t i = 0; i < ends.at(k); ++i) p.messages.push_back((*chat)[i]);
  p.text = messages_text(p.messages);
  return p;
}

void Conversation::keep(std::size_t n) {
  if (turns.size() > n) turns.resize(n);
  if (ends.size() > n) ends.resize(n);
}

Workload::Workload(std::vector<Conversation> conversations, std::string description)
    : conversations_(std::move(conversations)), description_(std::move(description)) {
  std::erase_if(conversations_, [](const Conversation& c) { return c.turns.empty(); });
  if (conversations_.empty()) throw Error("the workload has no requests");
}

std::size_t Workload::turns() const {
  std::size_t n = 0;
  for (const auto& c : conversations_) n += c.turns.size();
  return n;
}

bool Workload::multi_turn() const {
  for (const auto& c : conversations_) {
    if (c.turns.size() > 1) return true;
  }
  return false;
}

Prompt Workload::next(std::uint64_t index) {
  std::uint64_t id;
  if (!waiting_.empty()) {
    id = waiting_.front();
    waiting_.pop_front();
    ++sessions_[id].turn;
  } else {
    id = next_session_++;
    sessions_[id] = Session{static_cast<std::size_t>(started_++ % conversations_.size()), 0};
  }
  sent_[index] = id;
  const Session& s = sessions_[id];
  return conversations_[s.conversation].turn(s.turn);
}

void Workload::ended(std::uint64_t index) {
  auto it = sent_.find(index);
  if (it == sent_.end()) return;
  std::uint64_t id = it->second;
  sent_.erase(it);
  const Session& s = sessions_[id];
  if (s.turn + 1 < conversations_[s.conversation].turns.size()) {
    waiting_.push_back(id);
  } else {
    sessions_.erase(id);
  }
}

}  // namespace cuprobe
