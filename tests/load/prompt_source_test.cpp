#include "load/prompt_source.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::string write_file(const std::string& text) {
  std::string path = test::temp_dir() + "/data.jsonl";
  std::ofstream(path) << text;
  return path;
}

TEST(PromptSource, SyntheticIsDeterministicSizedAndDistinct) {
  auto a = synthetic_prompts(50, 7, 42);
  auto b = synthetic_prompts(50, 7, 42);
  Prompt p0 = a->prompt(0);
  EXPECT_EQ(p0.text, b->prompt(0).text);
  EXPECT_NE(p0.text, a->prompt(1).text);
  EXPECT_EQ(std::count(p0.text.begin(), p0.text.end(), ' '), 49);
  EXPECT_EQ(p0.max_tokens, 7);
  EXPECT_EQ(p0.expected_prompt_tokens, 50);
  EXPECT_THROW(synthetic_prompts(0, 7, 1), Error);
  EXPECT_THROW(synthetic_prompts(5, 0, 1), Error);
}

TEST(PromptSource, DatasetPromptsMessagesAndLengths) {
  auto src = dataset_prompts(write_file("{\"prompt\": \"hello\", \"max_tokens\": 3}\n\n"
                                        "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n"),
                             9);
  Prompt p = src->prompt(0);
  EXPECT_EQ(p.text, "hello");
  EXPECT_EQ(p.max_tokens, 3);
  Prompt q = src->prompt(1);
  EXPECT_TRUE(q.messages.is_array());
  EXPECT_EQ(q.max_tokens, 9);
  EXPECT_EQ(src->prompt(2).text, "hello");  // cycles
}

TEST(PromptSource, DatasetErrorsNameTheLine) {
  struct Case {
    const char* text;
    const char* needle;
  } cases[] = {{"{\"prompt\": \"a\"}\n{broken\n", "byte 17: line 2: not valid JSON: invalid literal"},
               {"[1]\n", "byte 0: line 1: not a JSON object"},
               {"{\"x\": 1}\n", "line 1: needs \"prompt\" or \"messages\""},
               {"{\"prompt\": 5}\n", "must be a non-empty string"},
               {"{\"prompt\": \"a\", \"max_tokens\": -1}\n", "positive integer"},
               {"{\"messages\": [{\"role\": \"user\"}]}\n", "\"role\" and \"content\""},
               {"\n\n", "no prompts"}};
  for (const auto& c : cases) {
    try {
      dataset_prompts(write_file(c.text), 4);
      ADD_FAILURE() << c.text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(dataset_prompts("/nonexistent/file.jsonl", 4), Error);
}

}  // namespace
}  // namespace cuprobe
