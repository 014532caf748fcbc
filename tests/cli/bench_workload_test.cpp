// bench's workloads against the suite's streaming server: random and
// shared-prefix lengths in the server's tokens (/tokenize), ShareGPT files,
// multi-turn sessions, bad files and flags.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "support/json_output.h"
#include "support/run_cuprobe.h"
#include "support/stream_server.h"

namespace cuprobe::test {
namespace {

using nlohmann::json;

StreamServerOptions fast() { return stream_timing(1000, 500); }

std::string bad_path() { return write_temp_file("unigram.json", R"({"model": {"type": "Unigram"}})"); }

std::string words(int n, const std::string& first = "w") {
  std::string s = first;
  for (int i = 1; i < n; ++i) s += " w";
  return s;
}

TEST(BenchWorkload, RandomLengthsAreTheServersTokensAndRepeat) {
  StreamServerOptions o = fast();
  o.chars_per_token = 2;  // common words are 1-3 tokens here: words would be wrong
  StreamServer s(o);
  std::vector<std::string> args = {"bench",
                                   s.url(),
                                   "--dataset-name",
                                   "random",
                                   "--random-input-len",
                                   "40",
                                   "--random-output-len",
                                   "8",
                                   "--random-range-ratio",
                                   "0.5",
                                   "-n",
                                   "12",
                                   "--seed",
                                   "5",
                                   "--json",
                                   "-q"};
  auto r = run_cuprobe(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  EXPECT_EQ(j["settings"]["prompt_lengths"], "server /tokenize");
  EXPECT_EQ(j["settings"]["dataset"]["name"], "random");
  EXPECT_NE(j["settings"]["prompts"].get<std::string>().find("20..60 tokens in, 4..12 out"), std::string::npos)
      << j["settings"]["prompts"];
  EXPECT_GT(s.tokenize_calls(), 12u);
  std::vector<ServedRequest> first;
  for (const ServedRequest& q : s.served()) {
    if (q.path != "/v1/completions" || q.prompt == "Hello") continue;  // the field probe
    first.push_back(q);
    EXPECT_GE(q.prompt_tokens, 20);
    EXPECT_LE(q.prompt_tokens, 60);
    EXPECT_GE(q.completion_tokens, 4);
    EXPECT_LE(q.completion_tokens, 12);
  }
  ASSERT_EQ(first.size(), 12u);
  // Same seed and settings: the same requests, in the same order (-c 1).
  StreamServer again(o);
  args[1] = again.url();
  ASSERT_EQ(run_cuprobe(args).exit_code, 0);
  std::vector<ServedRequest> second;
  for (const ServedRequest& q : again.served()) {
    if (q.prompt != "Hello") second.push_back(q);
  }
  ASSERT_EQ(second.size(), first.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(second[i].prompt, first[i].prompt);
    EXPECT_EQ(second[i].completion_tokens, first[i].completion_tokens);
  }
}

TEST(BenchWorkload, WithoutTokenizeLengthsAreWordsAndTheReportSaysSo) {
  StreamServerOptions o = fast();
  o.tokenize_endpoint = false;
  StreamServer s(o);
  auto r = run_cuprobe({"bench", s.url(), "--dataset-name", "random", "--random-input-len", "16", "--random-output-len",
                        "2", "-n", "3", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("lengths: words"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: prompt lengths in words: tokenize:"), std::string::npos) << r.out;
  for (const ServedRequest& q : s.served()) {
    if (q.prompt != "Hello") {
      EXPECT_EQ(q.prompt_tokens, 16);
    }
  }
  r = run_cuprobe({"bench", s.url(), "--dataset-name", "random", "--token-count", "server", "-n", "1", "-q"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("tokenize:"), std::string::npos) << r.err;
}

// --tokenizer counts with a local tokenizer.json: the server is not asked.
TEST(BenchWorkload, LocalTokenizerCountsWithoutTheServer) {
  json tokenizer = {{"model", {{"type", "BPE"}, {"vocab", {{"t", 0}}}, {"merges", {"t h", "th e"}}}},
                    {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}}}};
  std::string path = write_temp_file("tokenizer.json", tokenizer.dump());
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url(), "--dataset-name", "random", "--random-input-len", "30", "--random-output-len",
                        "2", "-n", "3", "--tokenizer", path, "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_stdout(r)["settings"]["prompt_lengths"], "tokenizer " + path);
  EXPECT_EQ(s.tokenize_calls(), 0u);
  // vLLM's result names the tokenizer as given (tokenizer_id), the model beside it.
  std::string result = temp_dir() + "/vllm.json";
  r = run_cuprobe({"bench", s.url(), "--dataset-name", "random", "--random-input-len", "30", "--random-output-len", "2",
                   "-n", "2", "--tokenizer", path, "--result-file", result, "--result-format", "vllm", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json saved = json::parse(slurp(result));
  EXPECT_EQ(saved["tokenizer_id"], path);
  EXPECT_EQ(saved["model_id"].get<std::string>().find("tokenizer"), std::string::npos) << saved["model_id"];
  r = run_cuprobe({"bench", s.url(), "--dataset-name", "random", "--tokenizer", path, "--token-count", "words"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_cuprobe({"bench", s.url(), "--dataset-name", "random", "--tokenizer", bad_path(), "-q"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("only BPE tokenizers"), std::string::npos) << r.err;
}

TEST(BenchWorkload, SharedPrefixGroups) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench",
                        s.url(),
                        "--dataset-name",
                        "shared-prefix",
                        "--gsp-num-groups",
                        "2",
                        "--gsp-prompts-per-group",
                        "3",
                        "--gsp-system-prompt-len",
                        "20",
                        "--gsp-question-len",
                        "4",
                        "--gsp-output-len",
                        "3",
                        "-n",
                        "6",
                        "-c",
                        "2",
                        "--json",
                        "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  EXPECT_EQ(j["settings"]["dataset"]["conversations"], 6);
  std::map<std::string, int> prefixes;
  for (const ServedRequest& q : s.served()) {
    if (q.prompt == "Hello") continue;
    EXPECT_EQ(q.prompt_tokens, 24);
    EXPECT_EQ(q.completion_tokens, 3);
    ++prefixes[q.prompt.substr(0, q.prompt.find("\n\n"))];
  }
  EXPECT_EQ(prefixes.size(), 2u);
}

json sharegpt_entry(const std::vector<std::string>& turns) {
  json conv = json::array();
  for (std::size_t i = 0; i < turns.size(); ++i)
    conv.push_back({{"from", i % 2 ? "gpt" : "human"}, {"value", turns[i]}});
  return {{"id", "x"}, {"conversations", conv}};
}

TEST(BenchWorkload, ShareGptPromptsAndReplyLengths) {
  json doc = json::array();
  for (int i = 0; i < 6; ++i) doc.push_back(sharegpt_entry({words(10 + i, "q" + std::to_string(i)), words(5 + i)}));
  doc.push_back(sharegpt_entry({words(2), words(50)}));  // too short a prompt: filtered
  std::string path = write_temp_file("sharegpt.json", doc.dump());
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url(), "--dataset-name", "sharegpt", "--dataset-path", path, "-n", "6",
                        "--pool-size", "10", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  EXPECT_EQ(j["settings"]["dataset"]["too_short"], 1);
  EXPECT_EQ(j["settings"]["dataset"]["conversations"], 6);
  int seen = 0;
  for (const ServedRequest& q : s.served()) {
    if (q.prompt == "Hello") continue;
    ++seen;
    EXPECT_EQ(q.completion_tokens, q.prompt_tokens - 5) << q.prompt;  // reply i has 5+i words, prompt 10+i
  }
  EXPECT_EQ(seen, 6);
}

// Each turn carries the history; a session's next turn is sent only after its
// previous one ended. Two in flight, four sessions of three turns: two run to
// their end, then the next two (12 requests, every turn once).
TEST(BenchWorkload, MultiTurnSessionsKeepTheirOrder) {
  json doc = json::array();
  for (int i = 0; i < 4; ++i) {
    std::string id = "s" + std::to_string(i);
    doc.push_back(sharegpt_entry(
        {id + "t0 " + words(5), words(6), id + "t1 " + words(5), words(7), id + "t2 " + words(5), words(8)}));
  }
  std::string path = write_temp_file("multi.json", doc.dump());
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url() + "/v1/chat/completions", "--dataset-name", "sharegpt", "--dataset-path", path,
                        "--multi-turn", "-n", "12", "-c", "2", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_stdout(r)["settings"]["dataset"]["turns"], 12);
  std::map<std::string, std::vector<ServedRequest>> sessions;
  for (const ServedRequest& q : s.served()) {
    if (q.prompt.starts_with("Hello")) continue;
    sessions[q.prompt.substr(0, 2)].push_back(q);
  }
  ASSERT_EQ(sessions.size(), 4u);
  for (const auto& [id, turns] : sessions) {
    ASSERT_EQ(turns.size(), 3u) << id;
    for (std::size_t t = 0; t < 3; ++t) {
      EXPECT_NE(turns[t].prompt.find(id + "t" + std::to_string(t)), std::string::npos) << turns[t].prompt;
      EXPECT_EQ(turns[t].completion_tokens, static_cast<std::int64_t>(6 + t));
      if (t == 0) continue;
      EXPECT_NE(turns[t].prompt.find(id + "t" + std::to_string(t - 1)), std::string::npos) << "history";
      ASSERT_FALSE(turns[t - 1].event_ns.empty());
      EXPECT_GT(turns[t].recv_ns, turns[t - 1].event_ns.back()) << id << " turn " << t << " before the last ended";
    }
  }
}

TEST(BenchWorkload, BadFilesAndFlags) {
  StreamServer s(fast());
  std::string bad = write_temp_file("broken.json", "[{\"conversations\": [");
  auto r = run_cuprobe({"bench", s.url(), "--dataset-name", "sharegpt", "--dataset-path", bad, "-q"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("broken.json: byte "), std::string::npos) << r.err;
  EXPECT_TRUE(s.served().empty()) << "a bad file fails before any request";
  std::string jsonl = write_temp_file("bad.jsonl", "{\"prompt\": \"a\"}\n[1]\n");
  r = run_cuprobe({"bench", s.url(), "--dataset-name", "jsonl", "--dataset-path", jsonl, "-q"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad.jsonl: byte 16: line 2: not a JSON object"), std::string::npos) << r.err;
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"--dataset-name", "alpaca"},
                                             {"--dataset-name", "sharegpt"},
                                             {"--dataset-name", "random", "--dataset-path", jsonl},
                                             {"--dataset-name", "random", "--random-range-ratio", "1"},
                                             {"--dataset-name", "random", "--multi-turn"},
                                             {"--dataset-name", "jsonl", "--dataset-path", jsonl, "--dataset", jsonl},
                                             {"--dataset-name", "random", "--token-count", "bytes"},
                                             {"--random-input-len", "5"},
                                             {"--tokenizer", jsonl}}) {
    args.insert(args.begin(), {"bench", s.url(), "-q"});
    r = run_cuprobe(args);
    EXPECT_EQ(r.exit_code, 2) << args[4] << " " << r.err;
  }
}

TEST(BenchWorkload, JsonlMultiTurn) {
  std::string path = write_temp_file(
      "chat.jsonl",
      "{\"messages\": [{\"role\": \"user\", \"content\": \"a1 x\"}, {\"role\": \"assistant\", \"content\": \"r\"},"
      " {\"role\": \"user\", \"content\": \"a2 y\"}], \"output_len\": 2}\n");
  StreamServer s(fast());
  auto r = run_cuprobe(
      {"bench", s.url(), "--dataset-name", "jsonl", "--dataset-path", path, "--multi-turn", "-n", "2", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> prompts;
  for (const ServedRequest& q : s.served()) {
    if (q.prompt != "Hello") prompts.push_back(q.prompt);
  }
  ASSERT_EQ(prompts.size(), 2u);
  EXPECT_EQ(prompts[0], "a1 x");
  EXPECT_EQ(prompts[1], "a1 x\n\nr\n\na2 y");
}

}  // namespace
}  // namespace cuprobe::test
