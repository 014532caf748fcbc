// The keys of `--result-format vllm|sglang`, key by key against the peers' own
// result writers (read from vllm/benchmarks/serve.py, `main_async` and
// `benchmark`, and SGLang's bench_serving.py `benchmark`): every key a peer
// writes is written, every key that differs is listed here and in
// docs/bench.md ("Key by key against the peers").
#include <gtest/gtest.h>

#include <set>

#include "report/bench_result.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe {
namespace {

std::set<std::string> keys_of(const nlohmann::ordered_json& j) {
  std::set<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.insert(k);
  return keys;
}

std::string bench_doc() { return test::slurp(CUPROBE_SOURCE_DIR "/docs/bench.md"); }

BenchReport closed_loop_report(const LoadResult& load) {
  BenchReport r;
  r.load = &load;
  r.settings = {{"url", "http://h:1"}, {"endpoint", "/v1/completions"},
                {"model", "m"},        {"mode", "closed_loop"},
                {"concurrency", 8},    {"requests", 100},
                {"input_len", 256},    {"output_len", 64}};
  r.metrics.percentiles = {99};  // vLLM's default --metric-percentiles
  r.all.duration_s = 10;
  r.all.completed = 100;
  r.all.ttft_ms = summarize({10, 20, 30}, r.metrics.percentiles);
  r.all.tpot_ms = summarize({1, 2}, r.metrics.percentiles);
  r.all.itl_ms = summarize({1, 2}, r.metrics.percentiles);
  r.all.e2e_ms = summarize({100, 200, 300}, r.metrics.percentiles);
  r.all.peak_concurrent_requests = 8;
  r.identity = nlohmann::ordered_json{{"cuprobe_version", "1"}};
  return r;
}

// "mean_ttft_ms", "median_ttft_ms", ... for each statistic given.
std::set<std::string> stats(const std::string& metric, const std::vector<std::string>& which) {
  std::set<std::string> keys;
  for (const auto& w : which) keys.insert(w + "_" + metric + "_ms");
  return keys;
}

std::set<std::string> joined(std::initializer_list<std::set<std::string>> sets) {
  std::set<std::string> all;
  for (const auto& s : sets) all.insert(s.begin(), s.end());
  return all;
}

// What `vllm bench serve --save-result --max-concurrency 8` writes without
// --save-detailed, --goodput, --metadata, ramp-up, probes or spec decoding, with
// the default --percentile-metrics ttft,tpot,itl and --metric-percentiles 99.
// (With --max-concurrency vLLM also measures the client-side queue, written only
// when "client_queue_time" is among --percentile-metrics, so not by default.)
const std::vector<std::string> kVllmStats = {"mean", "median", "std", "p99"};
const std::set<std::string> kVllmKeys = joined({{"date",
                                                 "endpoint_type",
                                                 "backend",
                                                 "label",
                                                 "model_id",
                                                 "tokenizer_id",
                                                 "num_prompts",
                                                 "request_rate",
                                                 "burstiness",
                                                 "max_concurrency",
                                                 "duration",
                                                 "completed",
                                                 "failed",
                                                 "total_input_tokens",
                                                 "total_output_tokens",
                                                 "request_throughput",
                                                 "request_goodput",
                                                 "output_throughput",
                                                 "total_token_throughput",
                                                 "latencies",
                                                 "queue_times",
                                                 "max_output_tokens_per_s",
                                                 "max_concurrent_requests",
                                                 "rtfx"},
                                                stats("ttft", kVllmStats),
                                                stats("tpot", kVllmStats),
                                                stats("itl", kVllmStats)});
TEST(BenchResultPeerKeys, VllmKeysAreVllmsKeys) {
  LoadResult load;
  EXPECT_EQ(keys_of(bench_result_vllm(closed_loop_report(load))), kVllmKeys);
  std::string doc = bench_doc();
  for (const char* k : {"latencies", "queue_times", "e2el"})
    EXPECT_NE(doc.find(std::string("`") + k + "`"), std::string::npos) << k;
}

// What vLLM adds on request: --save-detailed (input_lens, output_lens, ttfts, itls,
// start_times, generated_texts, errors), a ramp (ramp_up_* and rps_change_events),
// client_queue_time and e2el_including_client_queue among --percentile-metrics
// (written under --max-concurrency; the second only with a finite rate), cuprobe's
// identity with --result-identity.
TEST(BenchResultPeerKeys, VllmKeysOnRequest) {
  LoadResult load;
  load.records.resize(3);
  for (std::size_t i = 0; i < load.records.size(); ++i) {
    RequestRecord& rec = load.records[i];
    rec.scheduled_ns = 1'000'000'000 + static_cast<std::int64_t>(i) * 100'000'000;
    rec.send_ns = rec.scheduled_ns + 5'000'000;
    rec.end_ns = rec.send_ns + 50'000'000;
    rec.generated_text = "t" + std::to_string(i);
  }
  load.records[2].error = "http_500";
  BenchReport r = closed_loop_report(load);
  r.settings["mode"] = "open_loop";
  r.settings["rate"] = 10.0;
  PeerResultOptions o;
  o.detailed = true;
  o.identity = true;
  o.metrics = {"ttft", "client_queue_time", "e2el_including_client_queue"};
  nlohmann::ordered_json j = bench_result_vllm(r, o);
  std::set<std::string> want = kVllmKeys;
  for (const char* k : {"mean_tpot_ms", "median_tpot_ms", "std_tpot_ms", "p99_tpot_ms", "mean_itl_ms", "median_itl_ms",
                        "std_itl_ms", "p99_itl_ms"})
    want.erase(k);
  want.insert({"input_lens", "output_lens", "ttfts", "itls", "start_times", "generated_texts", "errors", "cuprobe"});
  want.merge(stats("client_queue_time", kVllmStats));
  want.merge(stats("e2el_including_client_queue", kVllmStats));
  EXPECT_EQ(keys_of(j), want);
  // Types and units: lists of seconds, one entry per measured request; statistics in ms.
  EXPECT_EQ(j["latencies"], nlohmann::ordered_json::parse("[0.05, 0.05, 0.0]"));  // 0.0: failed (vLLM's default)
  EXPECT_EQ(j["queue_times"], nlohmann::ordered_json::parse("[0.005, 0.005, 0.005]"));
  EXPECT_DOUBLE_EQ(j["mean_client_queue_time_ms"].get<double>(), 5);  // successful requests only
  EXPECT_DOUBLE_EQ(j["mean_e2el_including_client_queue_ms"].get<double>(), 55);
  EXPECT_DOUBLE_EQ(j["start_times"][1].get<double>(), 1.105);
  EXPECT_EQ(j["generated_texts"][0], "t0");

  // A ramp: vLLM's ramp keys and its integer-rate events.
  r.settings.erase("rate");
  r.settings["ramp_up"] = "linear";
  r.settings["ramp_up_start_rps"] = 1.0;
  r.settings["ramp_up_end_rps"] = 3.0;
  j = bench_result_vllm(r);
  for (const char* k : {"ramp_up_strategy", "ramp_up_start_rps", "ramp_up_end_rps", "rps_change_events"})
    EXPECT_TRUE(j.contains(k)) << k;
  ASSERT_EQ(j["rps_change_events"].size(), 3u);  // 1 at the start, 2 and 3 as requests 1 and 2 go
  EXPECT_EQ(j["rps_change_events"][2]["rps"], 3);
  EXPECT_EQ(j["rps_change_events"][0]["timestamp"].get<std::string>().size(), 26u);  // 2026-12-04T21:05:03.123456
}

// SGLang's bench_serving result line (its `result` dict, without --output-details or
// --cache-report), python/sglang/benchmark/serving.py `benchmark` at commit 00f9ec47
// (`python -m sglang.bench_serving` runs it): p90 and p95 of every latency beside p99.
const std::set<std::string> kSglangKeys = joined({{"tag",
                                                   "backend",
                                                   "dataset_name",
                                                   "request_rate",
                                                   "max_concurrency",
                                                   "sharegpt_output_len",
                                                   "random_input_len",
                                                   "random_output_len",
                                                   "random_range_ratio",
                                                   "server_info",
                                                   "duration",
                                                   "completed",
                                                   "total_input_tokens",
                                                   "total_input_text_tokens",
                                                   "total_input_vision_tokens",
                                                   "total_output_tokens",
                                                   "total_output_tokens_retokenized",
                                                   "request_throughput",
                                                   "input_throughput",
                                                   "output_throughput",
                                                   "total_throughput",
                                                   "concurrency",
                                                   "accept_length",
                                                   "max_output_tokens_per_s",
                                                   "max_concurrent_requests"},
                                                  stats("e2e_latency", {"mean", "median", "std", "p90", "p95", "p99"}),
                                                  stats("ttft", {"mean", "median", "std", "p90", "p95", "p99"}),
                                                  stats("tpot", {"mean", "median", "std", "p90", "p95", "p99"}),
                                                  stats("itl", {"mean", "median", "std", "p90", "p95", "p99"})});

// Only SGLang's keys by default; cuprobe's identity ("cuprobe", a key SGLang never writes) only with
// --result-identity, as in vLLM's result.
TEST(BenchResultPeerKeys, SglangKeysAreSglangsKeys) {
  LoadResult load;
  EXPECT_EQ(keys_of(bench_result_sglang(closed_loop_report(load))), kSglangKeys);
  PeerResultOptions o;
  o.identity = true;
  std::set<std::string> want = kSglangKeys;
  want.insert("cuprobe");
  EXPECT_EQ(keys_of(bench_result_sglang(closed_loop_report(load), o)), want);
}

// vLLM's main_async: tokenizer_id = args.tokenizer if args.tokenizer is not None else model_id (a string either
// way), model_id = args.model (the name sent unless --served-model-name names another).
TEST(BenchResultPeerKeys, VllmTokenizerIdIsTheTokenizerElseTheModel) {
  LoadResult load;
  BenchReport r = closed_loop_report(load);
  nlohmann::ordered_json j = bench_result_vllm(r);
  EXPECT_EQ(j["model_id"], "m");
  EXPECT_EQ(j["tokenizer_id"], "m");
  r.settings["model_id"] = "org/model";
  EXPECT_EQ(bench_result_vllm(r)["tokenizer_id"], "org/model");
  r.settings["tokenizer"] = "/models/tok/tokenizer.json";
  j = bench_result_vllm(r);
  EXPECT_EQ(j["model_id"], "org/model");
  EXPECT_EQ(j["tokenizer_id"], "/models/tok/tokenizer.json");
}

// vLLM's --percentile-metrics picks the metrics with statistics; --save-detailed (and
// SGLang's --output-details) add the per-request lists both peers write.
TEST(BenchResultPeerKeys, PercentileMetricsAndDetails) {
  LoadResult load;
  load.records.resize(2);
  load.records[1].error = "http_500";
  PeerResultOptions o;
  o.metrics = {"ttft", "e2el"};
  o.detailed = true;
  std::set<std::string> got = keys_of(bench_result_vllm(closed_loop_report(load), o));
  EXPECT_TRUE(got.count("p99_ttft_ms") && got.count("mean_e2el_ms"));
  EXPECT_FALSE(got.count("mean_tpot_ms") || got.count("mean_itl_ms"));
  for (const char* k : {"input_lens", "output_lens", "ttfts", "itls", "start_times", "generated_texts", "errors"})
    EXPECT_TRUE(got.count(k)) << k;
  nlohmann::ordered_json s = bench_result_sglang(closed_loop_report(load), o);
  EXPECT_EQ(s["errors"].size(), 2u);
  EXPECT_EQ(s["errors"][0], "");
}

// Where a key's meaning still differs from a peer's, docs/bench.md says so.
TEST(BenchResultPeerKeys, DifferencesAreDocumented) {
  std::string doc = bench_doc();
  std::size_t section = doc.find("### Key by key against the peers");
  ASSERT_NE(section, std::string::npos);
  std::string text = doc.substr(section);
  for (const char* key : {"max_concurrent_requests", "max_output_tokens_per_s", "duration", "total_output_tokens",
                          "total_output_tokens_retokenized", "server_info", "accept_length", "latencies", "queue_times",
                          "rtfx", "request_rate"}) {
    EXPECT_NE(text.find(std::string("`") + key + "`"), std::string::npos) << key;
  }
}

}  // namespace
}  // namespace cuprobe
