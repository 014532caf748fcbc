#include "net/sse_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cuprobe {
namespace {

struct Events final : SseSink {
  std::vector<std::pair<std::string, std::string>> got;
  void on_event(std::string_view event, std::string_view data) override { got.emplace_back(event, data); }
};

std::vector<std::pair<std::string, std::string>> parse(const std::string& text, std::size_t step) {
  SseParser p;
  Events e;
  for (std::size_t i = 0; i < text.size(); i += step) EXPECT_TRUE(p.feed(text.substr(i, step), e));
  return e.got;
}

TEST(SseParser, SplitAnywhereSameEvents) {
  const std::string text =
      ": keep-alive\n\n"
      "data: {\"a\":1}\n\n"
      "data:{\"b\":2}\r\n\r\n"
      "event: error\ndata: {\"error\":\"x\"}\n\n"
      "data: line1\ndata: line2\n\n"
      "id: 7\nretry: 10\ndata:  two spaces\r\r"
      "data: [DONE]\n\n";
  std::vector<std::pair<std::string, std::string>> want = {
      {"", "{\"a\":1}"},    {"", "{\"b\":2}"},   {"error", "{\"error\":\"x\"}"},
      {"", "line1\nline2"}, {"", " two spaces"}, {"", "[DONE]"}};
  for (std::size_t step = 1; step <= text.size(); ++step) EXPECT_EQ(parse(text, step), want) << "step " << step;
}

TEST(SseParser, CrLfSplitBetweenReads) {
  SseParser p;
  Events e;
  EXPECT_TRUE(p.feed("data: x\r", e));
  EXPECT_TRUE(p.feed("\n\r", e));
  EXPECT_TRUE(p.feed("\ndata: y\n\n", e));
  ASSERT_EQ(e.got.size(), 2u);
  EXPECT_EQ(e.got[0].second, "x");
  EXPECT_EQ(e.got[1].second, "y");
}

TEST(SseParser, CommentsAndEmptyEventsDispatchNothing) {
  EXPECT_TRUE(parse(": ping\n\n:\n\n\n\nevent: x\n\n", 3).empty());
}

TEST(SseParser, IncompleteEventIsPending) {
  SseParser p;
  Events e;
  EXPECT_TRUE(p.feed("data: {\"partial\"", e));
  EXPECT_TRUE(e.got.empty());
  EXPECT_TRUE(p.has_pending());
}

TEST(SseParser, OversizedEventOverflows) {
  SseParser p(64);
  Events e;
  EXPECT_FALSE(p.feed("data: " + std::string(100, 'x'), e));
  EXPECT_TRUE(p.overflowed());
  EXPECT_FALSE(p.feed("\n\n", e));
  SseParser q(64);
  bool ok = true;
  for (int i = 0; i < 20 && ok; ++i) ok = q.feed("data: 0123456789\n", e);
  EXPECT_FALSE(ok);
  EXPECT_TRUE(e.got.empty());
}

}  // namespace
}  // namespace cuprobe
