#include "report/bench_result.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace cuprobe {
namespace {

BenchReport sample_report(const LoadResult& load) {
  BenchReport r;
  r.load = &load;
  r.settings = {{"url", "http://h:1"}, {"endpoint", "/v1/completions"},
                {"model", "m"},        {"mode", "open_loop"},
                {"concurrency", 0},    {"rate", 4.0},
                {"requests", 100},     {"burstiness", 0.5},
                {"input_len", 256},    {"output_len", 64}};
  r.metrics.percentiles = {50, 99.9};
  r.metrics.goodput.ttft_ms = 100;
  r.all.duration_s = 10;
  r.all.completed = 40;
  r.all.failed = 2;
  r.all.input_tokens = 4000;
  r.all.output_tokens = 2560;
  r.all.request_per_s = 4;
  r.all.output_tokens_per_s = 256;
  r.all.goodput_per_s = 3;
  r.all.ttft_ms = summarize({10, 20, 30}, r.metrics.percentiles);
  r.all.itl_ms = summarize({1, 2}, r.metrics.percentiles);
  r.all.e2e_ms = summarize({100, 200, 300}, r.metrics.percentiles);
  BenchIdentityInput id{"1.2.3", "node7", "run-a", {{"tp", "8"}}, 1'700'000'000'000'000'000, nullptr, "no GPU"};
  r.identity = bench_identity_json(id);
  return r;
}

TEST(BenchResult, VllmKeys) {
  LoadResult load;
  PeerResultOptions o;
  o.percentiles = {50, 99.9};
  o.metrics = {"ttft", "tpot", "e2el"};
  o.identity = true;
  nlohmann::ordered_json j = bench_result_vllm(sample_report(load), o);
  // Every key, exactly: tests/report/bench_result_peer_keys_test.cpp. Here: one per --metric-percentiles value.
  for (const char* key : {"p50_ttft_ms", "p99.9_ttft_ms", "p99.9_e2el_ms"}) EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["backend"], "openai");
  EXPECT_EQ(j["label"], "run-a");
  EXPECT_EQ(j["tp"], "8");  // --metadata at the top level, as vLLM
  EXPECT_EQ(j["request_rate"], 4.0);
  EXPECT_TRUE(j["max_concurrency"].is_null());
  EXPECT_EQ(j["total_output_tokens"], 2560);
  EXPECT_DOUBLE_EQ(j["request_goodput"].get<double>(), 3);
  EXPECT_DOUBLE_EQ(j["mean_tpot_ms"].get<double>(), 0);  // np.mean([] or 0)
  EXPECT_EQ(j["cuprobe"]["cuprobe_version"], "1.2.3");
  EXPECT_EQ(j["cuprobe"]["gpus_note"], "no GPU");
  EXPECT_EQ(j["cuprobe"]["start_time"], "2023-11-14T22:13:20Z");
}

TEST(BenchResult, SglangKeys) {
  LoadResult load;
  nlohmann::ordered_json j = bench_result_sglang(sample_report(load));
  // Every key, exactly: tests/report/bench_result_peer_keys_test.cpp.
  EXPECT_EQ(j["backend"], "sglang-oai");
  EXPECT_EQ(j["tag"], "run-a");
  EXPECT_DOUBLE_EQ(j["median_e2e_latency_ms"].get<double>(), 200);
  EXPECT_TRUE(j["mean_tpot_ms"].is_null());  // no TPOT at all
}

TEST(BenchResult, CsvRowMatchesHeader) {
  LoadResult load;
  BenchReport r = sample_report(load);
  std::string header = bench_result_csv_header(r.metrics.percentiles);
  std::string row = bench_result_csv_row(r);
  auto commas = [](const std::string& s) { return std::count(s.begin(), s.end(), ','); };
  EXPECT_EQ(commas(header), commas(row));
  EXPECT_NE(header.find("p99.9_ttft_ms"), std::string::npos);
  EXPECT_EQ(row.rfind("run-a,2023-11-14T22:13:20Z,node7,1.2.3,m,", 0), 0u) << row;
}

TEST(BenchResult, MetadataNeedsKeyEqualsValue) {
  EXPECT_EQ(parse_metadata("a=b=c"), (std::pair<std::string, std::string>{"a", "b=c"}));
  EXPECT_THROW(parse_metadata("novalue"), Error);
  EXPECT_THROW(parse_metadata("=x"), Error);
}

}  // namespace
}  // namespace cuprobe
