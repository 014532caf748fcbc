// A bench workload: conversations of one or more turns, built before the run
// (random, shared-prefix, ShareGPT, JSONL), and the order they are sent in.
// Single-turn conversations go out in their order, cycling when the run asks
// for more. A multi-turn conversation is a session: each turn carries the
// history before it, and a session's next turn is handed out only after its
// previous one ended, so turns keep their order; a request slot with no
// session waiting starts the next conversation.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "load/prompt_source.h"

namespace cuprobe {

// One or more turns. Turns cut from a chat share it: each turn's history is
// built when the turn is sent (turn()), so a conversation of n turns holds its
// messages once, not n times.
struct Conversation {
  std::vector<Prompt> turns;  // with `chat`: each turn's lengths only (its messages and text come from turn())
  std::shared_ptr<const nlohmann::json> chat;  // the messages the turns are cut from, or null
  std::vector<std::size_t> ends;               // with `chat`: turn k is chat[0, ends[k])
  // Turn k as sent: with `chat`, its messages and text built now.
  Prompt turn(std::size_t k) const;
  // Keeps the first n turns.
  void keep(std::size_t n);
};

// Splits a chat at each user message: turn k carries every message up to and
// including the k-th user message (the assistant messages between are the
// dataset's, so the requests are the same every run). Non-chat endpoints get
// the same history as text, the messages' contents joined by blank lines.
// Each turn's max_tokens is `max_tokens`.
Conversation split_turns(std::shared_ptr<const nlohmann::json> messages, std::int64_t max_tokens);
Conversation split_turns(const nlohmann::json& messages, std::int64_t max_tokens);

// The messages' contents joined by blank lines (the prompt for /v1/completions and /generate).
std::string messages_text(const nlohmann::json& messages);

class Workload {
 public:
  Workload(std::vector<Conversation> conversations, std::string description);

  // The turn to send as request `index` (the load loop's send order).
  Prompt next(std::uint64_t index);
  // The first conversation's first turn, without starting a session (the peers'
  // warm-up sends it, as their "test input").
  Prompt first() const { return conversations_.front().turn(0); }
  // Request `index` ended (success or not): its session's next turn may go.
  void ended(std::uint64_t index);

  const std::string& describe() const { return description_; }
  std::size_t conversations() const { return conversations_.size(); }
  std::size_t turns() const;
  bool multi_turn() const;

 private:
  struct Session {
    std::size_t conversation = 0, turn = 0;
  };
  std::vector<Conversation> conversations_;
  std::string description_;
  std::uint64_t started_ = 0;                              // conversations started so far
  std::uint64_t next_session_ = 0;                         // ids for sessions
  std::unordered_map<std::uint64_t, Session> sessions_;    // live sessions
  std::deque<std::uint64_t> waiting_;                      // sessions whose last turn ended
  std::unordered_map<std::uint64_t, std::uint64_t> sent_;  // request index → session
};

}  // namespace cuprobe
