// Unknown options: one line naming the first one with the nearest spelling,
// the tokens in the order typed, exit 2 (issue 26 item 2), for every verb.
#include "cli/unknown_option.h"

#include <gtest/gtest.h>

#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

TEST(UnknownOption, NearestSpellingIsSuggested) {
  std::vector<std::string> known = {"--max-concurrency", "--concurrency", "-c", "--request-rate", "--num-prompts"};
  EXPECT_EQ(nearest_option("--max-concurency", known), "--max-concurrency");
  EXPECT_EQ(nearest_option("--request-rte", known), "--request-rate");
  EXPECT_EQ(nearest_option("--num-promtps", known), "--num-prompts");  // a transposition costs 1
  EXPECT_EQ(nearest_option("--frobnicate", known), "");
}

TEST(UnknownOption, MessageKeepsTheTypedOrder) {
  std::vector<std::string> known = {"--max-concurrency"};
  EXPECT_EQ(unexpected_arguments_message({"--max-concurency", "4"}, known),
            "unknown option --max-concurency; did you mean --max-concurrency?");
  EXPECT_EQ(unexpected_arguments_message({"--max-concurency=4", "x", "y"}, known),
            "unknown option --max-concurency; did you mean --max-concurrency? (also not expected: x y)");
  EXPECT_EQ(unexpected_arguments_message({"a", "b"}, known), "unexpected argument 'a' (also not expected: b)");
  EXPECT_EQ(unexpected_arguments_message({}, known), "unexpected arguments");
}

TEST(UnknownOption, EveryVerbHintsAndExitsTwo) {
  struct Case {
    std::vector<std::string> args;
    std::string line;
  };
  const std::vector<Case> cases = {
      {{"bench", "http://127.0.0.1:1", "--max-concurency", "4"},
       "cuprobe bench: unknown option --max-concurency; did you mean --max-concurrency?\n"},
      {{"bench", "--max-concurency", "4", "http://127.0.0.1:1"},
       "cuprobe bench: unknown option --max-concurency; did you mean --max-concurrency?\n"},
      {{"sample", "--intervall", "10ms"}, "cuprobe sample: unknown option --intervall; did you mean --interval?\n"},
      {{"analyze", "x.json", "--jsn"}, "cuprobe analyze: unknown option --jsn; did you mean --json?\n"},
      {{"wait", "http://127.0.0.1:1", "--timeuot", "1s"},
       "cuprobe wait: unknown option --timeuot; did you mean --timeout?\n"},
      {{"devices", "--frobnicate"}, "cuprobe devices: unknown option --frobnicate (see --help)\n"},
  };
  for (const Case& c : cases) {
    auto r = test::run_cuprobe(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args.front() << ": " << r.err;
    EXPECT_EQ(r.err, c.line);
  }
}

}  // namespace
}  // namespace cuprobe
