#include "load/dataset_trace.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "support/error_text.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::string first_words(const std::string& text, int n) {
  std::size_t cut = 0;
  for (int w = 0; w < n && cut != std::string::npos; ++w) cut = text.find(' ', cut + 1);
  return text.substr(0, cut);
}

TraceSpec mooncake_spec() {
  TraceSpec spec;
  spec.seconds_per_unit = 0.001;  // Mooncake's timestamps are milliseconds
  spec.chunk_tokens = 512;
  return spec;
}

TEST(DatasetTrace, ReadsMooncakesFormat) {
  auto requests = read_trace(test::data_path("datasets/mooncake_sample.jsonl"), mooncake_spec());
  ASSERT_EQ(requests.size(), 6u);
  EXPECT_EQ(requests[2].timestamp, 150);
  EXPECT_EQ(requests[2].input_length, 1300);
  EXPECT_EQ(requests[2].output_length, 9);
  EXPECT_EQ(requests[2].hash_ids, (std::vector<std::int64_t>{0, 1, 5}));
  EXPECT_TRUE(requests[4].hash_ids.empty());
  TraceSpec first3 = mooncake_spec();
  first3.count = 3;
  EXPECT_EQ(read_trace(test::data_path("datasets/mooncake_sample.jsonl"), first3).size(), 3u);
}

TEST(DatasetTrace, LengthsSharedBlocksAndTimes) {
  TraceSpec spec = mooncake_spec();
  auto requests = read_trace(test::data_path("datasets/mooncake_sample.jsonl"), spec);
  WordCounter words;
  TraceWorkload t = trace_dataset(requests, spec, words);
  ASSERT_EQ(t.conversations.size(), 6u);
  EXPECT_EQ(t.offsets_ns, (std::vector<std::int64_t>{0, 0, 150'000'000, 420'000'000, 600'000'000, 605'000'000}));
  // Blocks (id, length): (0,512) (1,512) (2,76) (3,512) (4,88) (5,276) (6,188) (2,512).
  EXPECT_EQ(t.blocks, 8u);
  std::vector<const Prompt*> p;
  for (const auto& c : t.conversations) p.push_back(&c.turns.at(0));
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_EQ(p[i]->expected_prompt_tokens, requests[i].input_length) << i;
    EXPECT_EQ(count_words(p[i]->text), requests[i].input_length) << i;
    EXPECT_EQ(p[i]->max_tokens, requests[i].output_length) << i;
  }
  // Requests naming the same leading ids share that prefix, token for token.
  std::string blocks01 = first_words(p[0]->text, 1024);
  EXPECT_EQ(first_words(p[2]->text, 1024), blocks01);
  EXPECT_EQ(first_words(p[5]->text, 1024), blocks01);
  EXPECT_EQ(first_words(p[1]->text, 512), first_words(p[3]->text, 512));
  EXPECT_NE(first_words(p[0]->text, 512), first_words(p[1]->text, 512));
  EXPECT_NE(first_words(p[2]->text, 1100), first_words(p[0]->text, 1100)) << "block 5 is not block 2";

  spec.seconds_per_unit = 0.002;  // SGLang's --mooncake-slowdown-factor 2
  EXPECT_EQ(trace_dataset(requests, spec, words).offsets_ns[3], 840'000'000);
}

TEST(DatasetTrace, SortedByTimeAndIdsShortOfTheLength) {
  std::string path = test::write_temp_file("trace.jsonl",
                                           "{\"ts\": 2.5, \"in\": 40, \"out\": 3, \"ids\": [7]}\n"
                                           "{\"ts\": 1.0, \"in\": 10, \"out\": 4}\n"
                                           "{\"ts\": 2.0, \"in\": 0, \"out\": 5, \"ids\": []}\n");
  TraceSpec spec;  // vLLM's defaults: seconds, 16 tokens per id
  spec.timestamp_field = "ts";
  spec.input_field = "in";
  spec.output_field = "out";
  spec.hash_field = "ids";
  auto requests = read_trace(path, spec);
  WordCounter words;
  TraceWorkload t = trace_dataset(requests, spec, words);
  ASSERT_EQ(t.conversations.size(), 3u);
  EXPECT_EQ(t.offsets_ns, (std::vector<std::int64_t>{0, 1'000'000'000, 1'500'000'000}));
  EXPECT_EQ(t.conversations[0].turns[0].max_tokens, 4);
  EXPECT_EQ(t.conversations[1].turns[0].expected_prompt_tokens, 1) << "an empty input is still one token";
  EXPECT_EQ(t.conversations[2].turns[0].expected_prompt_tokens, 40) << "one id of 16, then its own 24";
}

TEST(DatasetTrace, BadLinesAndSettings) {
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"{\"input_length\": 3, \"output_length\": 1}\n", "line 1: needs \"timestamp\", a number"},
           {"{\"timestamp\": 1, \"output_length\": 1}\n", "line 1: needs \"input_length\""},
           {"{\"timestamp\": 1, \"input_length\": 3, \"output_length\": 0}\n",
            "\"output_length\" must be an integer of at least 1"},
           {"{\"timestamp\": 1, \"input_length\": 3, \"output_length\": 2, \"hash_ids\": [\"a\"]}\n",
            "\"hash_ids\" must hold integers"},
           {"{\"timestamp\": 1, \"input_length\": 3, \"output_length\": 2, \"hash_ids\": 4}\n",
            "\"hash_ids\" must be an array"},
           {"\n", "no requests"}}) {
    std::string path = test::write_temp_file("bad.jsonl", text);
    try {
      read_trace(path, TraceSpec{});
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  }
  auto requests = read_trace(test::data_path("datasets/mooncake_sample.jsonl"), TraceSpec{});
  WordCounter words;
  TraceSpec bad;
  bad.chunk_tokens = 0;
  EXPECT_THROW(trace_dataset(requests, bad, words), Error);
  bad = TraceSpec{};
  bad.seconds_per_unit = 0;
  EXPECT_THROW(trace_dataset(requests, bad, words), Error);
}

// Issue 39: a request 31 years after the first waited silently; a span over 30 days is a wrong unit.
TEST(DatasetTrace, AFarFutureRequestIsRefused) {
  std::string path = test::write_temp_file("far.jsonl",
                                           "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 2}\n"
                                           "{\"timestamp\": 1e12, \"input_length\": 10, \"output_length\": 2}\n");
  EXPECT_EQ(test::error_text([&] { read_trace(path, mooncake_spec()); }),
            path +
                ": its requests span 1000000000 s from the first to the last (over 30 days): check the timestamps' "
                "unit");
  std::string huge = test::write_temp_file("huge.jsonl",
                                           "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 2}\n"
                                           "{\"timestamp\": 1e300, \"input_length\": 10, \"output_length\": 2}\n");
  EXPECT_NE(test::error_text([&] { read_trace(huge, mooncake_spec()); }).find("over 30 days"), std::string::npos);
}

}  // namespace
}  // namespace cuprobe
