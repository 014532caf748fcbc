#include "load/workload.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace cuprobe {
namespace {

nlohmann::json chat(std::initializer_list<std::pair<const char*, const char*>> turns) {
  nlohmann::json m = nlohmann::json::array();
  for (const auto& [role, content] : turns) m.push_back({{"role", role}, {"content", content}});
  return m;
}

TEST(Workload, SplitTurnsCarriesTheHistory) {
  Conversation c = split_turns(chat({{"system", "S"}, {"user", "q1"}, {"assistant", "a1"}, {"user", "q2"}}), 7);
  ASSERT_EQ(c.turns.size(), 2u);
  EXPECT_EQ(c.turn(0).messages.size(), 2u);
  EXPECT_EQ(c.turn(1).messages.size(), 4u);
  EXPECT_EQ(c.turn(1).messages[2]["content"], "a1");
  EXPECT_EQ(c.turn(1).text, "S\n\nq1\n\na1\n\nq2");
  EXPECT_EQ(c.turn(1).max_tokens, 7);
  EXPECT_TRUE(c.turns[1].messages.is_null()) << "the history is built when the turn is sent, not stored";
}

Prompt text_prompt(const std::string& text) {
  Prompt p;
  p.text = text;
  return p;
}

TEST(Workload, SingleTurnGoesInOrderAndCycles) {
  Workload w({Conversation{{text_prompt("a")}}, Conversation{{text_prompt("b")}}}, "two");
  EXPECT_EQ(w.next(0).text, "a");
  EXPECT_EQ(w.next(1).text, "b");
  EXPECT_EQ(w.next(2).text, "a");  // before any ended: single turns never wait
  w.ended(1);
  EXPECT_EQ(w.next(3).text, "b");
  EXPECT_FALSE(w.multi_turn());
}

// A session's next turn goes only after its previous one ended; meanwhile
// other requests start other conversations.
TEST(Workload, SessionTurnsWaitForThePreviousOne) {
  Conversation two{{text_prompt("A1"), text_prompt("A2")}};
  Conversation three{{text_prompt("B1"), text_prompt("B2"), text_prompt("B3")}};
  Workload w({two, three}, "sessions");
  EXPECT_TRUE(w.multi_turn());
  EXPECT_EQ(w.turns(), 5u);
  EXPECT_EQ(w.next(0).text, "A1");
  EXPECT_EQ(w.next(1).text, "B1");
  EXPECT_EQ(w.next(2).text, "A1");  // nothing ended yet: a new session of the next conversation (cycled)
  w.ended(1);
  EXPECT_EQ(w.next(3).text, "B2");
  w.ended(0);
  w.ended(3);
  EXPECT_EQ(w.next(4).text, "A2");
  EXPECT_EQ(w.next(5).text, "B3");
  w.ended(4);  // A's last turn: the session is over
  EXPECT_EQ(w.next(6).text, "B1");
  w.ended(42);  // unknown index: ignored
}

TEST(Workload, EmptyIsAnError) { EXPECT_THROW(Workload({}, "none"), Error); }

}  // namespace
}  // namespace cuprobe
