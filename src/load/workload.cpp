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

Conversation split_turns(const nlohmann::json& messages, std::int64_t max_tokens) {
  Conversation c;
  nlohmann::json history = nlohmann::json::array();
  for (const auto& m : messages) {
    history.push_back(m);
    if (m.is_object() && m.value("role", std::string()) == "user") {
      Prompt p;
      p.messages = history;
      p.text = messages_text(history);
      p.max_tokens = max_tokens;
      c.turns.push_back(std::move(p));
    }
  }
  return c;
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
  return conversations_[s.conversation].turns[s.turn];
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
