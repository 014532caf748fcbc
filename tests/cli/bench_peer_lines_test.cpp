// The peers' documented command lines, run unchanged with `cuprobe bench` in
// place of `vllm bench serve` / `python3 -m sglang.bench_serving` (issue 26
// item 1), against the suite's streaming server: requests sent = --num-prompts,
// never more in flight than --max-concurrency, the sampling parameters in every
// body, the result where --result-dir/--result-filename say, --output-file
// appended. The lines follow vLLM's docs (docs/benchmarking/cli.md, `vllm bench
// serve --help`) and SGLang's (bench_serving.py's usage lines, docs/developer_guide/
// bench_serving.md), with small sizes and the test server's port.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_cuprobe.h"
#include "support/stream_server.h"

namespace cuprobe::test {
namespace {

using nlohmann::json;

StreamServerOptions fast() { return stream_timing(2000, 500); }

// The load's requests (the field probe "Hello" left out; chat prompts end with a space).
std::vector<ServedRequest> load_requests(const StreamServer& s) {
  std::vector<ServedRequest> out;
  for (const ServedRequest& q : s.served()) {
    if (q.prompt != "Hello" && q.prompt != "Hello ") out.push_back(q);
  }
  return out;
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(BenchPeerLines, VllmRandomLineSendsNumPromptsAllAtOnce) {
  StreamServer s(fast());
  // vllm bench serve --backend vllm --model M --endpoint /v1/completions --dataset-name random
  //   --random-input-len N --random-output-len N --num-prompts N
  auto r = run_cuprobe({"bench", "--backend", "vllm", "--model", "test-model", "--endpoint", "/v1/completions",
                        "--dataset-name", "random", "--random-input-len", "16", "--random-output-len", "4",
                        "--num-prompts", "12", "--port", std::to_string(s.port()), "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["requests"]["completed"], 12);
  EXPECT_EQ(load_requests(s).size(), 12u);  // --num-prompts: requests sent, none repeated
  EXPECT_EQ(j["settings"]["max_concurrency"], nullptr);
  EXPECT_EQ(j["settings"]["concurrency"], 12);  // --request-rate inf: every request at once
  for (const ServedRequest& q : load_requests(s)) EXPECT_EQ(q.path, "/v1/completions");
}

TEST(BenchPeerLines, VllmLineWithEveryOption) {
  StreamServer s(fast());
  std::string dir = temp_dir() + "/results";
  std::vector<std::string> line = {"bench",
                                   "--backend",
                                   "openai-chat",
                                   "--base-url",
                                   s.url(),
                                   "--endpoint",
                                   "/v1/chat/completions",
                                   "--model",
                                   "org/test-model",
                                   "--served-model-name",
                                   "test-model",
                                   "--dataset-name",
                                   "random",
                                   "--random-input-len",
                                   "16",
                                   "--random-output-len",
                                   "4",
                                   "--num-prompts",
                                   "20",
                                   "--max-concurrency",
                                   "3",
                                   "--request-rate",
                                   "inf",
                                   "--num-warmups",
                                   "2",
                                   "--ignore-eos",
                                   "--percentile-metrics",
                                   "ttft,e2el",
                                   "--metric-percentiles",
                                   "50,99",
                                   "--goodput",
                                   "ttft:5000",
                                   "tpot:1000",
                                   "--top-p",
                                   "0.9",
                                   "--top-k",
                                   "20",
                                   "--min-p",
                                   "0.05",
                                   "--temperature",
                                   "0.7",
                                   "--frequency-penalty",
                                   "0.1",
                                   "--presence-penalty",
                                   "0.2",
                                   "--repetition-penalty",
                                   "1.1",
                                   "--header",
                                   "x-a=1",
                                   "x-b=2",
                                   "--request-id-prefix",
                                   "bench-x-",
                                   "--ready-check-timeout-sec",
                                   "30",
                                   "--disable-tqdm",
                                   "--seed",
                                   "3",
                                   "--save-result",
                                   "--result-dir",
                                   dir,
                                   "--result-filename",
                                   "r.json",
                                   "--metadata",
                                   "tp=1",
                                   "ver=2",
                                   "--label",
                                   "L",
                                   "--save-detailed"};
  auto r = run_cuprobe(with(line, {"-q"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<ServedRequest> reqs = load_requests(s);
  EXPECT_EQ(reqs.size(), 22u);  // 20 measured + 2 warm-up
  EXPECT_LE(s.peak_streams(), 3);
  int with_id = 0;
  for (const ServedRequest& q : reqs) {
    json body = json::parse(q.body);
    EXPECT_EQ(body["model"], "test-model");
    EXPECT_EQ(body["top_p"], 0.9);
    EXPECT_EQ(body["top_k"], 20);
    EXPECT_EQ(body["min_p"], 0.05);
    EXPECT_EQ(body["temperature"], 0.7);
    EXPECT_EQ(body["frequency_penalty"], 0.1);
    EXPECT_EQ(body["presence_penalty"], 0.2);
    EXPECT_EQ(body["repetition_penalty"], 1.1);
    EXPECT_EQ(body["ignore_eos"], true);
    EXPECT_NE(q.head.find("\r\nx-a: 1\r\n"), std::string::npos) << q.head;
    EXPECT_NE(q.head.find("\r\nx-b: 2\r\n"), std::string::npos) << q.head;
    with_id += q.head.find("\r\nx-request-id: bench-x-") != std::string::npos ? 1 : 0;
  }
  EXPECT_EQ(with_id, 20);  // the measured requests; vLLM's warm-up (its test_input) carries no id
  json res = json::parse(slurp(dir + "/r.json"));
  EXPECT_EQ(res["num_prompts"], 20);
  EXPECT_EQ(res["completed"], 20);
  EXPECT_EQ(res["max_concurrency"], 3);
  EXPECT_EQ(res["request_rate"], "inf");
  EXPECT_EQ(res["backend"], "openai-chat");
  EXPECT_EQ(res["model_id"], "org/test-model");
  EXPECT_EQ(res["label"], "L");
  EXPECT_EQ(res["tp"], "1");
  EXPECT_EQ(res["ver"], "2");
  EXPECT_TRUE(res.contains("p50_ttft_ms") && res.contains("p99_e2el_ms"));
  EXPECT_FALSE(res.contains("mean_itl_ms") || res.contains("mean_tpot_ms"));  // not in --percentile-metrics
  EXPECT_NE(res["request_goodput"], nullptr);
  EXPECT_EQ(res["ttfts"].size(), 20u);  // --save-detailed
  EXPECT_EQ(res["itls"].size(), 20u);

  // --append-result: a second result on a new line of the same file.
  auto a = run_cuprobe(with(line, {"--append-result", "-q"}));
  ASSERT_EQ(a.exit_code, 0) << a.err;
  std::istringstream lines(slurp(dir + "/r.json"));
  std::string l1, l2, l3;
  std::getline(lines, l1);
  std::getline(lines, l2);
  EXPECT_FALSE(std::getline(lines, l3));
  EXPECT_EQ(json::parse(l2)["completed"], 20);
}

TEST(BenchPeerLines, VllmDefaultResultNameInResultDir) {
  StreamServer s(fast());
  std::string dir = temp_dir() + "/out";
  auto r = run_cuprobe({"bench", "--host", "127.0.0.1", "--port", std::to_string(s.port()), "--dataset-name", "random",
                        "--random-input-len", "8", "--random-output-len", "2", "--num-prompts", "4",
                        "--max-concurrency", "2", "--save-result", "--result-dir", dir, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(names[0].rfind("openai-infqps-concurrency2-test-model-", 0), 0u) << names[0];
  EXPECT_TRUE(names[0].ends_with(".json")) << names[0];
}

TEST(BenchPeerLines, SglangLinesAppendJsonl) {
  StreamServer s(fast());
  std::string out = temp_dir() + "/sglang.jsonl";
  // python3 -m sglang.bench_serving --backend sglang --dataset-name random --num-prompts 3000
  //   --random-input 1024 --random-output 1024 --random-range-ratio 0.5 (argparse's abbreviations)
  std::vector<std::string> line = {"bench",
                                   "--backend",
                                   "sglang",
                                   "--dataset-name",
                                   "random",
                                   "--num-prompt",
                                   "10",
                                   "--random-input",
                                   "16",
                                   "--random-output",
                                   "8",
                                   "--random-range-ratio",
                                   "0.5",
                                   "--port",
                                   std::to_string(s.port()),
                                   "--output-file",
                                   out,
                                   "--max-concurrency",
                                   "4",
                                   "--json",
                                   "-q"};
  for (int i = 0; i < 2; ++i) {
    auto r = run_cuprobe(line);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["settings"]["dataset"]["range_rule"], "sglang");
    EXPECT_EQ(j["requests"]["completed"], 10);
    EXPECT_EQ(j["requests"]["warmup"], 1);  // SGLang's --warmup-requests 1
  }
  EXPECT_EQ(load_requests(s).size(), 22u);
  EXPECT_LE(s.peak_streams(), 4);
  for (const ServedRequest& q : load_requests(s)) {
    EXPECT_EQ(q.path, "/generate");
    std::int64_t max_new = json::parse(q.body)["sampling_params"]["max_new_tokens"];
    EXPECT_GE(max_new, 4);  // SGLang's rule: [r·len, len]
    EXPECT_LE(max_new, 8);
  }
  std::istringstream lines(slurp(out));
  std::string l;
  int n = 0;
  while (std::getline(lines, l)) {
    json j = json::parse(l);
    EXPECT_EQ(j["backend"], "sglang");
    EXPECT_EQ(j["dataset_name"], "random");
    EXPECT_EQ(j["random_range_ratio"], 0.5);
    EXPECT_EQ(j["completed"], 10);
    EXPECT_EQ(j["max_concurrency"], 4);
    EXPECT_TRUE(j.contains("p90_ttft_ms") && j.contains("p95_e2e_latency_ms"));
    ++n;
  }
  EXPECT_EQ(n, 2);
}

TEST(BenchPeerLines, SglangChatLineWithSamplingAndHeaders) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench",
                        "--backend",
                        "sglang-oai-chat",
                        "--base-url",
                        s.url(),
                        "--dataset-name",
                        "random",
                        "--random-input-len",
                        "8",
                        "--random-output-len",
                        "3",
                        "--num-prompts",
                        "9",
                        "--max-concurrency",
                        "3",
                        "--request-rate",
                        "500",
                        "--warmup-requests",
                        "0",
                        "--header",
                        "X-Tenant=a",
                        "--extra-request-body",
                        "{\"top_k\": 5}",
                        "--temperature",
                        "0.3",
                        "--top-p",
                        "0.5",
                        "--tag",
                        "t1",
                        "--disable-ignore-eos",
                        "--apply-chat-template",
                        "--disable-tqdm",
                        "--json",
                        "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(load_requests(s).size(), 9u);
  EXPECT_LE(s.peak_streams(), 3);
  for (const ServedRequest& q : load_requests(s)) {
    json body = json::parse(q.body);
    EXPECT_EQ(q.path, "/v1/chat/completions");
    EXPECT_EQ(body["temperature"], 0.3);
    EXPECT_EQ(body["top_p"], 0.5);
    EXPECT_EQ(body["top_k"], 5);
    EXPECT_EQ(body["ignore_eos"], false);  // SGLang writes the field: not --disable-ignore-eos
    EXPECT_NE(q.head.find("\r\nX-Tenant: a\r\n"), std::string::npos) << q.head;
  }
  json j = json::parse(r.out);
  EXPECT_EQ(j["identity"]["label"], "t1");
  EXPECT_NE(j["settings"]["notes"].dump().find("--apply-chat-template"), std::string::npos);
}

TEST(BenchPeerLines, OldSaveResultFileStillWorksWithOneWarning) {
  StreamServer s(fast());
  std::string file = temp_dir() + "/c.json";
  auto r = run_cuprobe({"bench", s.url(), "-n", "3", "--output-len", "2", "--save-result", file, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "cuprobe bench: --save-result FILE is deprecated, use --result-file FILE (--save-result is "
            "vLLM's flag)\n");
  EXPECT_EQ(json::parse(slurp(file))["schema"], "cuprobe.bench/1");
}

TEST(BenchPeerLines, UsageErrors) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"bench", "http://127.0.0.1:1", "--port", "8000"},
           {"bench", "--base-url", "http://127.0.0.1:1", "--host", "h"},
           {"bench", "--backend", "tgi"},
           {"bench", "--backend", "vllm", "--disable-stream"},
           {"bench", "--backend", "vllm", "--request-rate", "inf", "--duration", "5s"},
           {"bench", "--backend", "vllm", "--percentile-metrics", "ttft,foo"},
           {"bench", "--backend", "vllm", "--result-dir", "/tmp"},
           {"bench", "--backend", "vllm", "--ignore-eos", "--no-ignore-eos"},
           {"bench", "--backend", "vllm", "--self-timed"},  // vLLM: only with --dataset-name timed_trace
           {"bench", "--backend", "vllm", "--dataset-name", "random", "--no-self-timed"},
           {"bench", "--profile"}}) {
    auto r = run_cuprobe(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace cuprobe::test
