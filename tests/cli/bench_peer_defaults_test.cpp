// The peers' defaults, transcribed from their code, against what cuprobe bench
// plans for a peer's command line (issue 26 item 6). Where a default differs on
// purpose, docs/bench.md ("Options of vllm bench serve and sglang.bench_serving")
// says why, and the test names the difference.
//
// vLLM: vllm/benchmarks/serve.py (add_cli_args, main_async) at commit def9ce85
// and vllm/benchmarks/datasets.py (add_dataset_parser; docs.vllm.ai/en/latest/cli/bench/serve,
// read 2026-12): --num-prompts 1000, --dataset-name random, --request-rate inf,
// --burstiness 1.0, --max-concurrency None, --num-warmups 0, --host 127.0.0.1,
// --port 8000, --endpoint /v1/completions, --metric-percentiles "99",
// --percentile-metrics ttft,tpot,itl, --ready-check-timeout-sec 600,
// --random-input-len 1024, --random-output-len 128, --random-range-ratio 0.0,
// no temperature when not given (main_async: "no longer sets temperature==0"),
// ignore_eos for the random dataset, --request-id-prefix bench-<8 hex>-.
// SGLang: python/sglang/benchmark/serving.py (cli_main, run_benchmark) at commit
// 00f9ec47 (what `python -m sglang.bench_serving` runs): --num-prompts 1000,
// --request-rate inf, --max-concurrency None, --warmup-requests 1, --port by
// backend (sglang 30000, lmdeploy 23333, vllm 8000), --random-input-len 1024,
// --random-output-len 1024, --random-range-ratio 0.0 (drawn in [r·len, len]),
// --gsp-num-groups 64, --gsp-prompts-per-group 16, --gsp-system-prompt-len 2048,
// --gsp-question-len 128, --gsp-output-len 256, --gsp-range-ratio 1.0,
// --temperature 0.0, --ready-check-timeout-sec 60.
#include <gtest/gtest.h>

#include "cli/bench_flags.h"
#include "cli/bench_plan.h"

namespace cuprobe {
namespace {

struct Planned {
  BenchFlags flags;
  CLI::App app{"bench"};
  BenchPlan plan;
};

std::unique_ptr<Planned> plan_of(std::vector<std::string> args) {
  auto p = std::make_unique<Planned>();
  declare_bench_flags(p->app, p->flags);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments in reverse
  p->app.parse(args);
  p->plan = plan_bench(p->flags, p->app);
  return p;
}

TEST(BenchPeerDefaults, VllmLineGetsVllmsDefaults) {
  auto p = plan_of({"--backend", "vllm", "--model", "m"});
  const BenchPlan& b = p->plan;
  EXPECT_EQ(b.peer, Peer::kVllm);
  EXPECT_EQ(b.server.host, "127.0.0.1");
  EXPECT_EQ(b.server.port, 8000);
  EXPECT_EQ(b.endpoint, "/v1/completions");
  EXPECT_EQ(b.load.requests, 1000u);           // --num-prompts 1000: requests sent
  EXPECT_EQ(b.rates, std::vector<double>{0});  // --request-rate inf
  EXPECT_EQ(b.load.concurrency, 1000);         // no --max-concurrency: every request at once
  EXPECT_FALSE(b.max_concurrency.has_value());
  EXPECT_EQ(b.load.warmup_requests, 0u);  // --num-warmups 0
  EXPECT_EQ(b.load.burstiness, 1.0);
  EXPECT_FALSE(b.request.temperature.has_value());  // the server's default
  EXPECT_EQ(b.request.style, BodyStyle::kVllm);
  EXPECT_TRUE(b.request.ignore_eos);  // the random dataset
  EXPECT_EQ(b.request.request_id_prefix.rfind("bench-", 0), 0u);
  ASSERT_TRUE(b.workload.has_value());  // --dataset-name random
  const RandomSpec& r = b.workload->spec.random;
  EXPECT_EQ(b.workload->spec.dataset_name, "random");
  EXPECT_EQ(r.input_len, 1024);
  EXPECT_EQ(r.output_len, 128);
  EXPECT_EQ(r.range_ratio, 0.0);
  EXPECT_EQ(r.rule, RangeRule::kVllm);
  EXPECT_EQ(b.workload->spec.pool_size, 1000u);  // as many distinct prompts as requests: none repeated
  ASSERT_TRUE(b.wait_timeout_ns.has_value());
  EXPECT_EQ(*b.wait_timeout_ns, 600'000'000'000);  // --ready-check-timeout-sec 600
  // Differences on purpose: cuprobe's percentiles default to 50,90,99 (vLLM: 99) and every
  // metric gets statistics in --result-format vllm (vLLM: ttft,tpot,itl).
  EXPECT_EQ(b.metrics.percentiles, (std::vector<double>{50, 90, 99}));
  EXPECT_TRUE(b.outputs.peer.metrics.empty());
}

TEST(BenchPeerDefaults, SglangLineGetsSglangsDefaults) {
  auto p = plan_of({"--backend", "sglang"});
  const BenchPlan& b = p->plan;
  EXPECT_EQ(b.peer, Peer::kSglang);
  EXPECT_EQ(b.server.port, 30000);
  EXPECT_EQ(b.endpoint, "/generate");
  EXPECT_EQ(b.load.requests, 1000u);
  EXPECT_EQ(b.load.concurrency, 1000);  // every request at once (the warm-up runs before, apart)
  EXPECT_EQ(b.request.style, BodyStyle::kSglang);
  EXPECT_TRUE(b.request.ignore_eos);
  EXPECT_FALSE(b.request.stream_options);
  EXPECT_TRUE(b.request.request_id_prefix.empty());
  EXPECT_EQ(b.load.warmup_requests, 1u);  // --warmup-requests 1
  ASSERT_TRUE(b.workload.has_value());    // SGLang's sharegpt needs a file: random, with a note
  const RandomSpec& r = b.workload->spec.random;
  EXPECT_EQ(r.input_len, 1024);
  EXPECT_EQ(r.output_len, 1024);
  EXPECT_EQ(r.rule, RangeRule::kSglang);
  EXPECT_EQ(b.notes.size(), 1u);
  EXPECT_EQ(find_backend("lmdeploy")->port, 23333);
  EXPECT_EQ(plan_of({"--backend", "vllm-chat"})->plan.endpoint, "/v1/chat/completions");
  EXPECT_EQ(plan_of({"--backend", "sglang-oai"})->plan.endpoint, "/v1/completions");

  auto g = plan_of({"--backend", "sglang", "--dataset-name", "generated-shared-prefix"});
  const SharedPrefixSpec& gsp = g->plan.workload->spec.gsp;
  EXPECT_EQ(gsp.groups, 64);
  EXPECT_EQ(gsp.prompts_per_group, 16);
  EXPECT_EQ(gsp.system_prompt_len, 2048);
  EXPECT_EQ(gsp.question_len, 128);
  EXPECT_EQ(gsp.output_len, 256);
  EXPECT_EQ(gsp.range_ratio, 1.0);
}

TEST(BenchPeerDefaults, ResultFormatNamesThePeer) {
  auto p = plan_of(
      {"http://127.0.0.1:9", "--dataset-name", "random", "--result-format", "sglang", "--result-file", "/tmp/x.jsonl"});
  EXPECT_EQ(p->plan.peer, Peer::kSglang);
  EXPECT_EQ(p->plan.workload->spec.random.rule, RangeRule::kSglang);
  EXPECT_EQ(p->plan.load.concurrency, 1);  // cuprobe's URL, no peer's server options: one at a time
  auto v = plan_of({"http://127.0.0.1:9", "--dataset-name", "random", "--output-file", "/tmp/x.jsonl"});
  EXPECT_EQ(v->plan.peer, Peer::kSglang);
  EXPECT_EQ(v->plan.outputs.results.at(0).format, "sglang");
  auto s = plan_of({"http://127.0.0.1:9", "--save-result"});
  EXPECT_EQ(s->plan.peer, Peer::kVllm);
  EXPECT_EQ(s->plan.outputs.results.at(0).format, "vllm");
  // vLLM's general lengths map to the dataset's own.
  auto l = plan_of({"--backend", "vllm", "--input-len", "64", "--output-len", "7"});
  EXPECT_EQ(l->plan.workload->spec.random.input_len, 64);
  EXPECT_EQ(l->plan.workload->spec.random.output_len, 7);
}

}  // namespace
}  // namespace cuprobe
