// Issue 35, bench items 1-4: the warm-up runs to completion before the measured
// run (as vLLM's and SGLang's benchmark() do); each --backend's request bodies as
// that peer builds them (tests/load/request_builder_test.cpp holds the bodies
// field by field); the peers' other flags accepted, as no-ops with a note, or
// refused with the reason; vLLM's result keys with --save-result.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "support/run_cuprobe.h"
#include "support/stream_server.h"

namespace cuprobe::test {
namespace {

using nlohmann::json;

// The field probe's "Hello" left out.
std::vector<ServedRequest> load_requests(const StreamServer& s) {
  std::vector<ServedRequest> out;
  for (const ServedRequest& q : s.served()) {
    if (q.prompt != "Hello" && q.prompt != "Hello ") out.push_back(q);
  }
  return out;
}

bool has_request_id(const ServedRequest& q) { return q.head.find("\r\nx-request-id: ") != std::string::npos; }

// vLLM's random line against `s`: `bench --backend vllm --model test-model --port P
// --dataset-name random --random-input-len 8 --random-output-len OUT --num-prompts N`, then `extra`.
std::vector<std::string> vllm_random(const StreamServer& s, const char* out, const char* n,
                                     const std::vector<std::string>& extra) {
  std::vector<std::string> line = {"bench",
                                   "--backend",
                                   "vllm",
                                   "--model",
                                   "test-model",
                                   "--port",
                                   std::to_string(s.port()),
                                   "--dataset-name",
                                   "random",
                                   "--random-input-len",
                                   "8",
                                   "--random-output-len",
                                   out,
                                   "--num-prompts",
                                   n};
  line.insert(line.end(), extra.begin(), extra.end());
  return line;
}

// --num-warmups 4 with --max-concurrency 8: every warm-up request has ended before
// the first measured request reaches the server (the issue saw them overlap: the
// first measured request left 0.2 ms after the start, the last warm-up ended at 379 ms).
TEST(BenchPeerBodies, WarmupEndsBeforeTheMeasuredRunStarts) {
  StreamServer s(stream_timing(20000, 3000));
  auto r = run_cuprobe(vllm_random(s, "6", "6", {"--num-warmups", "4", "--max-concurrency", "8", "--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<ServedRequest> warm, measured;
  for (const ServedRequest& q : load_requests(s)) (has_request_id(q) ? measured : warm).push_back(q);
  ASSERT_EQ(warm.size(), 4u);  // vLLM's warm-up: the first prompt, no request id
  ASSERT_EQ(measured.size(), 6u);
  std::int64_t last_warm_end = 0, first_measured = INT64_MAX;
  for (const ServedRequest& q : warm) {
    ASSERT_FALSE(q.event_ns.empty());
    last_warm_end = std::max(last_warm_end, q.event_ns.back());
    EXPECT_EQ(q.prompt, warm.front().prompt);
  }
  for (const ServedRequest& q : measured) first_measured = std::min(first_measured, q.recv_ns);
  EXPECT_LT(last_warm_end, first_measured);
  json j = json::parse(r.out);
  EXPECT_EQ(j["requests"]["warmup"], 4);
  EXPECT_EQ(j["requests"]["completed"], 6);
  // The progress lines say so.
  EXPECT_NE(r.err.find("warm-up: 4 requests of the first prompt"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warm-up done: 4 ok, 0 failed"), std::string::npos) << r.err;
  EXPECT_LT(r.err.find("warm-up done"), r.err.find("steady state reached")) << r.err;
}

// SGLang's warm-up (--warmup-requests, default 1) asks for at most 32 tokens.
TEST(BenchPeerBodies, SglangWarmupIsOneShortRequest) {
  StreamServer s(stream_timing(2000, 500));
  auto r = run_cuprobe({"bench", "--backend", "sglang", "--port", std::to_string(s.port()), "--dataset-name", "random",
                        "--random-input-len", "8", "--random-output-len", "40", "--random-range-ratio", "1",
                        "--num-prompts", "3", "-q", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<ServedRequest> reqs = load_requests(s);
  ASSERT_EQ(reqs.size(), 4u);
  std::sort(reqs.begin(), reqs.end(), [](const auto& a, const auto& b) { return a.recv_ns < b.recv_ns; });
  EXPECT_EQ(json::parse(reqs[0].body)["sampling_params"]["max_new_tokens"], 32);
  for (std::size_t i = 1; i < reqs.size(); ++i)
    EXPECT_EQ(json::parse(reqs[i].body)["sampling_params"]["max_new_tokens"], 40);
}

json first_body(const StreamServer& s) {
  std::vector<ServedRequest> reqs = load_requests(s);
  return reqs.empty() ? json() : json::parse(reqs.front().body);
}

// vLLM's backends: ignore_eos only for the random dataset (or --ignore-eos), no
// temperature unless given, max_completion_tokens in chat bodies, bench-<hex>-N ids.
TEST(BenchPeerBodies, VllmBackendsByDataset) {
  std::string custom = write_temp_file("c.jsonl", "{\"prompt\": \"alpha beta\"}\n{\"prompt\": \"gamma delta\"}\n");
  {
    StreamServer s(stream_timing(2000, 500));
    auto r = run_cuprobe({"bench", "--backend", "openai-chat", "--endpoint", "/v1/chat/completions", "--model",
                          "test-model", "--port", std::to_string(s.port()), "--dataset-name", "custom",
                          "--dataset-path", custom, "--custom-output-len", "4", "--num-prompts", "2", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json b = first_body(s);
    EXPECT_FALSE(b.contains("ignore_eos")) << b;
    EXPECT_FALSE(b.contains("temperature")) << b;
    EXPECT_FALSE(b.contains("max_tokens")) << b;
    EXPECT_EQ(b["max_completion_tokens"], 4);
    EXPECT_EQ(b["messages"][0]["content"][0]["type"], "text");
    std::vector<std::string> ids;
    for (const ServedRequest& q : load_requests(s)) {
      std::size_t at = q.head.find("\r\nx-request-id: bench-");
      ASSERT_NE(at, std::string::npos) << q.head;
      ids.push_back(q.head.substr(at + 16, q.head.find("\r\n", at + 2) - at - 16));
    }
    std::sort(ids.begin(), ids.end());
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_EQ(ids[0].size(), 16u) << ids[0];  // bench-XXXXXXXX-0
    EXPECT_EQ(ids[0].substr(0, 15), ids[1].substr(0, 15));
    EXPECT_EQ(ids[0].back(), '0');
    EXPECT_EQ(ids[1].back(), '1');
  }
  {
    StreamServer s(stream_timing(2000, 500));
    auto r = run_cuprobe(vllm_random(s, "4", "2", {"--temperature", "0", "-q"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json b = first_body(s);
    EXPECT_EQ(b["ignore_eos"], true);  // vLLM sets it for the random dataset
    EXPECT_EQ(b["temperature"], 0.0);  // given
    EXPECT_EQ(b["max_tokens"], 4);
    EXPECT_EQ(b["repetition_penalty"], 1.0);
    EXPECT_TRUE(b.contains("logprobs") && b["logprobs"].is_null());
  }
}

// SGLang's backends: ignore_eos and temperature 0.0 always (unless
// --disable-ignore-eos / given), no stream_options, no request id.
TEST(BenchPeerBodies, SglangBackends) {
  std::string custom = write_temp_file("c.jsonl", "{\"prompt\": \"alpha beta\"}\n");
  for (const char* backend : {"sglang-oai", "sglang-oai-chat", "sglang"}) {
    StreamServer s(stream_timing(2000, 500));
    auto r = run_cuprobe({"bench", "--backend", backend, "--model", "test-model", "--port", std::to_string(s.port()),
                          "--dataset-name", "custom", "--dataset-path", custom, "--custom-output-len", "4",
                          "--num-prompts", "1", "--warmup-requests", "0", "-q"});
    ASSERT_EQ(r.exit_code, 0) << backend << ": " << r.err;
    json b = first_body(s);
    for (const ServedRequest& q : load_requests(s)) EXPECT_FALSE(has_request_id(q)) << backend;
    EXPECT_FALSE(b.contains("stream_options")) << backend << b;
    if (std::string(backend) == "sglang") {
      EXPECT_EQ(b["sampling_params"]["ignore_eos"], true) << b;
      EXPECT_EQ(b["sampling_params"]["temperature"], 0.0) << b;
      EXPECT_EQ(b["sampling_params"]["max_new_tokens"], 4) << b;
    } else {
      EXPECT_EQ(b["ignore_eos"], true) << backend << b;
      EXPECT_EQ(b["temperature"], 0.0) << backend << b;
      EXPECT_EQ(b[std::string(backend) == "sglang-oai" ? "max_tokens" : "max_completion_tokens"], 4) << b;
    }
  }
}

// The peers' flags bench has no use for: a note each, the run goes on.
TEST(BenchPeerBodies, PeersNoOpFlagsRunWithANote) {
  StreamServer s(stream_timing(2000, 500));
  auto r = run_cuprobe(vllm_random(s, "2", "2",
                                   {"--trust-remote-code", "--skip-chat-template", "--custom-skip-chat-template",
                                    "--no-stream", "--tokenizer-mode", "auto", "--disable-tqdm", "--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json notes = json::parse(r.out)["settings"]["notes"];
  for (const char* flag : {"--trust-remote-code", "--skip-chat-template", "--custom-skip-chat-template", "--no-stream",
                           "--tokenizer-mode"}) {
    EXPECT_NE(notes.dump().find(std::string(flag) + ": no effect here"), std::string::npos) << flag << notes;
    EXPECT_NE(r.err.find(std::string(flag) + ": no effect here"), std::string::npos) << flag;
  }
  // vLLM's --no-stream is its own flag: stream_options stay in the bodies.
  EXPECT_TRUE(first_body(s).contains("stream_options"));
}

TEST(BenchPeerBodies, PeersUnofferedFlagsAreRefusedWithTheReason) {
  auto r = run_cuprobe({"bench", "--backend", "vllm", "--model", "m", "--lora-modules", "a", "b", "-n", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--lora-modules: LoRA adapters are not picked per request"), std::string::npos) << r.err;
  r = run_cuprobe({"bench", "--backend", "sglang", "--return-logprob", "-n", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--return-logprob: logprobs are not asked for"), std::string::npos) << r.err;
}

// argparse resolves an abbreviation against the peer's own flags: a prefix of one
// of them is written out; a prefix of a flag only cuprobe has is an unknown option.
TEST(BenchPeerBodies, AbbreviationsResolveOnlyToThePeersFlags) {
  StreamServer s(stream_timing(2000, 500));
  auto r = run_cuprobe({"bench", "--backend", "vllm", "--model", "test-model", "--port", std::to_string(s.port()),
                        "--dataset-name", "random", "--random-input", "8", "--random-output", "2", "--num-prompt", "3",
                        "-q", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["requests"]["completed"], 3);
  r = run_cuprobe({"bench", "--backend", "vllm", "--model", "m", "--no-stream-opt", "-n", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option --no-stream-opt; did you mean --no-stream-options?"), std::string::npos)
      << r.err;
}

TEST(BenchPeerBodies, NegativeNumPromptsIsOneLine) {
  auto r = run_cuprobe({"bench", "--backend", "vllm", "--model", "m", "--num-prompts", "-1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--num-prompts -1: give the number of requests to send"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// The warm-up's connections count with the run's: every request, warm-up or measured, went on a new connection or a
// reused one (was: the warm-up's records counted, its connections not).
TEST(BenchPeerBodies, WarmupConnectionsCountWithTheRun) {
  StreamServer s(stream_timing(2000, 500));
  auto r = run_cuprobe(vllm_random(s, "2", "4", {"--num-warmups", "2", "--max-concurrency", "1", "-q", "--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json c = json::parse(r.out)["run"]["connections"];
  EXPECT_EQ(c["opened"].get<int>() + c["requests_on_reused"].get<int>() - c["retried_on_new"].get<int>(), 6) << c;
}

// A count given twice (a pasted line with an override appended): the last wins, as in argparse.
TEST(BenchPeerBodies, NumPromptsGivenTwiceTakesTheLast) {
  StreamServer s(stream_timing(2000, 500));
  auto r = run_cuprobe(vllm_random(s, "2", "4", {"--num-prompts", "3", "-q", "--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["requests"]["completed"], 3);
}

// vLLM's result with --save-result: its keys, lists in seconds, p99 of ttft/tpot/itl
// by default; client_queue_time under --max-concurrency when asked for.
TEST(BenchPeerBodies, VllmResultKeysAndLists) {
  StreamServer s(stream_timing(2000, 500));
  std::string dir = temp_dir();
  auto r = run_cuprobe(vllm_random(
      s, "3", "5",
      {"--max-concurrency", "2", "--save-result", "--result-dir", dir, "--result-filename", "r.json", "-q"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(slurp(dir + "/r.json"));
  for (const char* k : {"p99_ttft_ms", "p99_tpot_ms", "p99_itl_ms", "latencies", "queue_times"})
    EXPECT_TRUE(j.contains(k)) << k;
  for (const char* k : {"p50_ttft_ms", "p90_ttft_ms", "mean_e2el_ms", "cuprobe", "start_times", "generated_texts",
                        "mean_client_queue_time_ms"})
    EXPECT_FALSE(j.contains(k)) << k;
  ASSERT_EQ(j["latencies"].size(), 5u);
  for (const json& v : j["latencies"]) EXPECT_GT(v.get<double>(), 0.002);  // seconds: ttft 2 ms + 2 gaps
  for (const json& v : j["latencies"]) EXPECT_LT(v.get<double>(), 5.0);
  // Closed loop at -c 2: vLLM creates every request at the start, so the later ones queue.
  std::vector<double> q;
  for (const json& v : j["queue_times"]) q.push_back(v.get<double>());
  std::sort(q.begin(), q.end());
  EXPECT_LT(q.front(), 0.001);
  EXPECT_GT(q.back(), 0.002);

  r = run_cuprobe(vllm_random(s, "3", "4",
                              {"--max-concurrency", "2", "--percentile-metrics", "ttft,client_queue_time",
                               "--metric-percentiles", "50,99", "--save-detailed", "--result-identity", "--save-result",
                               "--result-dir", dir, "--result-filename", "d.json", "-q"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = json::parse(slurp(dir + "/d.json"));
  for (const char* k : {"p50_ttft_ms", "p99_ttft_ms", "mean_client_queue_time_ms", "p99_client_queue_time_ms",
                        "start_times", "generated_texts", "cuprobe"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_FALSE(j.contains("mean_tpot_ms"));
  ASSERT_EQ(j["generated_texts"].size(), 4u);
  for (const json& t : j["generated_texts"]) EXPECT_FALSE(t.get<std::string>().empty());
  ASSERT_EQ(j["start_times"].size(), 4u);
  EXPECT_GT(j["start_times"][0].get<double>(), 0);
}

}  // namespace
}  // namespace cuprobe::test
