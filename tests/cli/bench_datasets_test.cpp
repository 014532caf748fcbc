// bench's peer datasets end to end against the suite's streaming server (one
// token per word): vLLM's random prefix, prefix_repetition, custom, sonnet,
// burstgpt and timed_trace, SGLang's generated-shared-prefix and mooncake.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "support/json_output.h"
#include "support/run_cuprobe.h"
#include "support/stream_server.h"

namespace cuprobe::test {
namespace {

using nlohmann::json;

StreamServerOptions fast() { return stream_timing(500, 200); }

std::vector<ServedRequest> served(const StreamServer& s) {
  std::vector<ServedRequest> out;
  for (const ServedRequest& q : s.served()) {
    if (q.prompt != "Hello") out.push_back(q);  // the field probe
  }
  return out;
}

json run_json(std::vector<std::string> args) {
  args.push_back("--json");
  args.push_back("-q");
  auto r = run_cuprobe(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json_stdout(r) : json();
}

TEST(BenchDatasets, RandomPrefixIsSharedByEveryPrompt) {
  StreamServer s(fast());
  json j = run_json({"bench", s.url(), "--dataset-name", "random", "--random-input-len", "10", "--random-output-len",
                     "3", "--random-prefix-len", "30", "-n", "8"});
  EXPECT_EQ(j["settings"]["dataset"]["random_prefix_len"], 30);
  EXPECT_EQ(j["settings"]["dataset"]["range_rule"], "vllm");
  std::set<std::string> prefixes;
  for (const ServedRequest& q : served(s)) {
    EXPECT_EQ(q.prompt_tokens, 40);
    std::size_t cut = 0;
    for (int w = 0; w < 30; ++w) cut = q.prompt.find(' ', cut) + 1;
    prefixes.insert(q.prompt.substr(0, cut));
  }
  EXPECT_EQ(prefixes.size(), 1u);
  EXPECT_EQ(served(s).size(), 8u);
}

TEST(BenchDatasets, PrefixRepetitionAndGeneratedSharedPrefix) {
  StreamServer s(fast());
  json j = run_json({"bench", s.url(), "--dataset-name", "prefix_repetition", "--prefix-repetition-prefix-len", "20",
                     "--prefix-repetition-suffix-len", "5", "--prefix-repetition-num-prefixes", "2",
                     "--prefix-repetition-output-len", "4", "--num-prompts", "6", "-c", "2"});
  EXPECT_EQ(j["settings"]["dataset"]["conversations"], 6);
  std::map<std::string, int> groups;
  for (const ServedRequest& q : served(s)) {
    EXPECT_EQ(q.prompt_tokens, 25);
    EXPECT_EQ(q.completion_tokens, 4);
    std::size_t cut = 0;
    for (int w = 0; w < 20; ++w) cut = q.prompt.find(' ', cut) + 1;
    ++groups[q.prompt.substr(0, cut)];
  }
  EXPECT_EQ(groups.size(), 2u);
  for (const auto& [prefix, n] : groups) EXPECT_EQ(n, 3);

  StreamServer g(fast());
  j = run_json({"bench", g.url(), "--dataset-name", "generated-shared-prefix", "--gsp-num-groups", "2",
                "--gsp-prompts-per-group", "2", "--gsp-system-prompt-len", "12", "--gsp-question-len", "4",
                "--gsp-output-len", "2", "-n", "4"});
  EXPECT_EQ(j["settings"]["dataset"]["name"], "generated-shared-prefix");
  for (const ServedRequest& q : served(g)) EXPECT_EQ(q.prompt_tokens, 16);
}

TEST(BenchDatasets, CustomJsonl) {
  std::string path = write_temp_file("custom.jsonl",
                                     "{\"prompt\": \"alpha one\", \"output_tokens\": 3}\n"
                                     "{\"prompt\": \"beta two two\", \"output_tokens\": 5}\n");
  StreamServer s(fast());
  json j = run_json({"bench", s.url(), "--dataset-name", "custom", "--dataset-path", path, "--custom-output-len", "-1",
                     "--num-prompts", "2"});
  EXPECT_EQ(j["settings"]["dataset"]["lines"], 2);
  EXPECT_EQ(j["settings"]["prompt_lengths"], "not counted");
  std::map<std::string, std::int64_t> out;
  for (const ServedRequest& q : served(s)) out[q.prompt] = q.completion_tokens;
  EXPECT_EQ(out, (std::map<std::string, std::int64_t>{{"alpha one", 3}, {"beta two two", 5}}));
  EXPECT_EQ(s.tokenize_calls(), 0u) << "custom prompts are sent as they are";
}

TEST(BenchDatasets, SonnetOnTheBundledText) {
  StreamServer s(fast());
  json j = run_json({"bench", s.url(), "--dataset-name", "sonnet", "--sonnet-input-len", "150", "--sonnet-prefix-len",
                     "60", "--sonnet-output-len", "7", "-n", "5"});
  EXPECT_EQ(j["settings"]["dataset"]["path"], "bundled");
  std::vector<ServedRequest> q = served(s);
  ASSERT_EQ(q.size(), 5u);
  for (const ServedRequest& r : q) {
    EXPECT_EQ(r.prompt.rfind("Pick as many lines as you can from these poem lines:\nFROM fairest creatures", 0), 0u);
    EXPECT_LE(r.prompt_tokens, 150);
    EXPECT_GT(r.prompt_tokens, 100);
    EXPECT_EQ(r.completion_tokens, 7);
  }
}

TEST(BenchDatasets, BurstGptLengths) {
  StreamServer s(fast());
  json j = run_json({"bench", s.url(), "--dataset-name", "burstgpt", "--dataset-path",
                     data_path("datasets/burstgpt_sample.csv"), "--num-prompts", "5", "-c", "5"});
  EXPECT_EQ(j["settings"]["dataset"]["kept"], 5);
  EXPECT_EQ(j["settings"]["dataset"]["other_models"], 6);
  std::map<std::int64_t, std::int64_t> got;
  for (const ServedRequest& q : served(s)) got[q.prompt_tokens] = q.completion_tokens;
  EXPECT_EQ(got, (std::map<std::int64_t, std::int64_t>{{52, 11}, {77, 129}, {233, 58}, {417, 276}, {1290, 402}}));
}

TEST(BenchDatasets, MooncakeAndTimedTraceReplayTheirRequests) {
  std::string trace = data_path("datasets/mooncake_sample.jsonl");
  StreamServer s(fast());
  json j = run_json({"bench", s.url(), "--dataset-name", "mooncake", "--dataset-path", trace, "--use-trace-timestamps",
                     "--num-prompts", "6", "-c", "6"});
  json d = j["settings"]["dataset"];
  EXPECT_EQ(d["chunk_tokens"], 512);
  EXPECT_EQ(d["seconds_per_unit"], 0.001);
  EXPECT_EQ(d["timed"], true);
  EXPECT_NEAR(d["span_s"].get<double>(), 0.605, 1e-9);
  EXPECT_EQ(d["blocks"], 8);
  std::multiset<std::int64_t> lengths;
  for (const ServedRequest& q : served(s)) lengths.insert(q.prompt_tokens);
  EXPECT_EQ(lengths, (std::multiset<std::int64_t>{200, 600, 700, 1100, 1300, 1536}));

  StreamServer t(fast());
  j = run_json({"bench", t.url(), "--dataset-name", "timed_trace", "--dataset-path", trace,
                "--timed-trace-sec-multiplier", "0.0005", "--timed-trace-chunk-hash-size", "256", "--no-self-timed",
                "--num-prompts", "3"});
  d = j["settings"]["dataset"];
  EXPECT_EQ(d["chunk_tokens"], 256);
  EXPECT_EQ(d["timed"], false);
  EXPECT_EQ(d["conversations"], 3);

  for (auto [args, code] : std::vector<std::pair<std::vector<std::string>, int>>{
           {{"--dataset-name", "mooncake", "--dataset-path", trace, "--timed-trace-sec-multiplier", "1"}, 2},
           {{"--dataset-name", "timed_trace", "--dataset-path", trace, "--mooncake-slowdown-factor", "2"}, 2},
           {{"--dataset-name", "timed_trace"}, 2},
           {{"--dataset-name", "prefix_repetition", "--num-prompts", "3"}, 2},  // fewer than the 10 prefixes
           {{"--dataset-name", "custom", "--dataset-path", trace}, 1},          // no "prompt"
           {{"--sonnet-input-len", "100"}, 2}}) {
    args.insert(args.begin(), {"bench", t.url(), "-q"});
    auto r = run_cuprobe(args);
    EXPECT_EQ(r.exit_code, code) << args[4] << ": " << r.err;
  }
}

}  // namespace
}  // namespace cuprobe::test
