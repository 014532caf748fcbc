#include "load/dataset_burstgpt.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <map>
#include <set>

#include "common/error.h"
#include "support/error_text.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::string burstgpt_path() { return test::data_path("datasets/burstgpt_sample.csv"); }

TEST(DatasetBurstGpt, KeepsGpt4RowsThatDidNotFail) {
  BurstGptFile f = read_burstgpt(burstgpt_path());
  EXPECT_EQ(f.lines, 12u);
  EXPECT_EQ(f.other_models, 6u);  // ChatGPT
  EXPECT_EQ(f.failed, 1u);        // GPT-4 with 0 response tokens
  ASSERT_EQ(f.rows.size(), 5u);
  EXPECT_EQ(f.rows[0].request_tokens, 417);
  EXPECT_EQ(f.rows[0].response_tokens, 276);
}

TEST(DatasetBurstGpt, SampledRowsGiveTheLengths) {
  BurstGptFile f = read_burstgpt(burstgpt_path());
  std::map<std::int64_t, std::int64_t> response_of;  // request tokens → response tokens
  for (const auto& r : f.rows) response_of[r.request_tokens] = r.response_tokens;
  WordCounter words;
  auto c = burstgpt_dataset(f, 5, 11, words);
  ASSERT_EQ(c.size(), 5u);
  std::set<std::int64_t> requests;
  for (const auto& conv : c) {
    const Prompt& p = conv.turns[0];
    ASSERT_TRUE(response_of.count(p.expected_prompt_tokens)) << p.expected_prompt_tokens;
    EXPECT_EQ(p.max_tokens, response_of[p.expected_prompt_tokens]);
    EXPECT_EQ(count_words(p.text), p.expected_prompt_tokens);
    requests.insert(p.expected_prompt_tokens);
  }
  EXPECT_EQ(requests.size(), 5u) << "as many as the file holds: each row once";
  auto many = burstgpt_dataset(f, 40, 11, words);
  ASSERT_EQ(many.size(), 40u) << "more than the file holds: rows repeat";
  WordCounter again;
  EXPECT_EQ(burstgpt_dataset(f, 40, 11, again)[17].turns[0].text, many[17].turns[0].text) << "seeded";
}

TEST(DatasetBurstGpt, Burstgpt3ColumnsAreFoundByName) {
  std::string path = test::write_temp_file(
      "burst3.csv",
      "Timestamp,Session ID,Elapsed time,Model,Request tokens,Response tokens,Total tokens,Log Type\r\n"
      "1,a,0.5,GPT-4,12,30,42,Conversation log\r\n"
      "2,b,0.7,GPT-4,\"9\",7.0,16,\"API log, retried\"\r\n");
  BurstGptFile f = read_burstgpt(path);
  ASSERT_EQ(f.rows.size(), 2u);
  EXPECT_EQ(f.rows[1].request_tokens, 9);
  EXPECT_EQ(f.rows[1].response_tokens, 7);
}

TEST(DatasetBurstGpt, BadFilesNameTheirLine) {
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"Timestamp,Model,Request tokens,Total tokens\n1,GPT-4,3,4\n", "no \"Response tokens\" column"},
           {"Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n1,GPT-4,3,4,7\n",
            "line 2: 5 fields where the header has 6"},
           {"Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n1,GPT-4,x,4,7,c\n",
            "line 2: Request tokens is not a non-negative integer"},
           {"Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n1,ChatGPT,3,4,7,c\n",
            "no GPT-4 row with a positive Response tokens (of 1 rows: 1 of other models, 0 failed)"},
           {"", "empty file"}}) {
    std::string path = test::write_temp_file("bad.csv", text);
    try {
      read_burstgpt(path);
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(read_burstgpt("/nonexistent/burst.csv"), Error);
}

// Issue 39: a token count that would build a gigabyte prompt is refused with its line, before anything
// is made; a device is refused (a private node: never the system's /dev).
TEST(DatasetBurstGpt, CountsAndFilesAreBoundedBeforeTheyAllocate) {
  std::string path = test::write_temp_file("huge.csv",
                                           "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
                                           "1,GPT-4,10,5,15,Conversation log\n"
                                           "2,GPT-4,1000000000,5,1000000005,Conversation log\n");
  EXPECT_EQ(test::error_text([&] { read_burstgpt(path); }),
            path + ": line 3: Request tokens 1000000000 is over the limit of 1048576 tokens");
  std::string node = test::temp_dir() + "/zero";
  if (::mknod(node.c_str(), S_IFCHR | 0600, ::makedev(1, 5)) != 0) GTEST_SKIP() << "mknod not permitted";
  std::string e = test::error_text([&] { read_burstgpt(node); });
  EXPECT_NE(e.find("a device, not a dataset file"), std::string::npos) << e;
}

}  // namespace
}  // namespace cuprobe
