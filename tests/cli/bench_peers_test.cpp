// bench against the suite's streaming server: goodput, percentiles, arrivals,
// sweeps, the peers' result files and the server's /metrics (issue 13).
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_cuprobe.h"
#include "support/scripted_server.h"
#include "support/stream_server.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

using nlohmann::json;

StreamServerOptions fast() {
  StreamServerOptions o;
  o.ttft_us = 2000;
  o.itl_us = 1000;
  o.itl_spread_us = 3000;  // request r: ITL 1..4 ms, so TPOT differs per request
  return o;
}

TEST(BenchPeers, GoodputPercentilesAndStdInJsonAndText) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url(), "-c", "4", "-n", "40", "--output-len", "8", "--goodput", "tpot:2.5",
                        "--goodput", "ttft:1000", "--percentiles", "50,95,99.9", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["goodput"]["slo"]["tpot_ms"], 2.5);
  EXPECT_EQ(j["goodput"]["slo"]["ttft_ms"], 1000);
  EXPECT_EQ(j["goodput"]["total"], 40);
  // ITLs of 1, 1.43, 1.86, 2.29 ms meet 2.5 ms; 2.71 .. 4 ms do not (per request r % 8).
  std::uint64_t good = j["goodput"]["good"];
  EXPECT_GT(good, 10u);
  EXPECT_LT(good, 30u);
  EXPECT_NEAR(j["goodput"]["per_s"].get<double>(), good / j["all"]["duration_s"].get<double>(), 1e-9);
  const json& tpot = j["all"]["tpot_ms"];
  EXPECT_TRUE(tpot["percentiles"].contains("p99.9"));
  EXPECT_TRUE(tpot["percentiles"].contains("p95"));
  EXPECT_GT(tpot["std"].get<double>(), 0.1);
  EXPECT_GT(j["all"]["concurrency"].get<double>(), 1.0);
  // vLLM counts the requests active at any time in a 1 s bucket: all 40 when the run is shorter.
  EXPECT_GE(j["all"]["peak_concurrent_requests"].get<int>(), 4);
  EXPECT_LE(j["all"]["peak_concurrent_requests"].get<int>(), 40);
  EXPECT_EQ(j["identity"]["cuprobe_version"].get<std::string>().empty(), false);
  EXPECT_FALSE(j["identity"]["host"].get<std::string>().empty());
  EXPECT_TRUE(j["identity"].contains("gpus") || j["identity"].contains("gpus_note"));

  // vLLM's spelling: several words after one --goodput, the URL after them.
  auto t = run_cuprobe({"bench", "-c", "2", "-n", "10", "--output-len", "4", "--goodput", "e2e:10000", "ttft:5000",
                        s.url(), "--percentiles", "50,99.9", "-q"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("p99.9"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("std"), std::string::npos);
  EXPECT_NE(t.out.find("goodput: 10 of 10 requests met ttft <= 5000 ms, e2e <= 10000 ms"), std::string::npos) << t.out;
}

TEST(BenchPeers, BadArrivalAndSloOptionsAreUsageErrors) {
  StreamServer s(fast());
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--goodput", "itl:5"},
        {"--percentiles", "200"},
        {"--burstiness", "0", "--rate", "5"},
        {"--ramp-up", "step"},
        {"--ramp-up", "linear", "--ramp-up-start-rps", "1", "--ramp-up-end-rps", "4", "--rate", "2"},
        {"--ramp-up", "linear", "--ramp-up-start-rps", "1", "--ramp-up-end-rps", "4", "--duration", "5s"},
        {"--rate", "2,x"},
        {"--metadata", "novalue"},
        {"--json", "--csv"},
        {"--rate", "1,2", "--profile", "vllm"}}) {
    std::vector<std::string> args = {"bench", s.url(), "-n", "2", "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = run_cuprobe(args);
    EXPECT_EQ(r.exit_code, 2) << extra.front() << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_EQ(s.served().size(), 0u);  // refused before any load
}

TEST(BenchPeers, RampAndBurstinessRunAndAreRecorded) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url(), "-n", "30", "--output-len", "2", "--ramp-up", "linear", "--ramp-up-start-rps",
                        "100", "--ramp-up-end-rps", "400", "--burstiness", "0.5", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["settings"]["ramp_up"], "linear");
  EXPECT_EQ(j["settings"]["burstiness"], 0.5);
  EXPECT_EQ(j["requests"]["completed"], 30);
  EXPECT_TRUE(j["all"].contains("queue_ms"));  // open loop
}

TEST(BenchPeers, RateSweepGivesOneResultPerRate) {
  StreamServer s(fast());
  std::string dir = temp_dir();
  auto r = run_cuprobe({"bench", s.url(), "--request-rate", "200,400", "-n", "10", "--output-len", "2", "--csv",
                        "--label", "sweep-a", "--save-result", dir + "/vllm.jsonl", "--result-format", "vllm", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string header, row1, row2, extra;
  std::getline(lines, header);
  std::getline(lines, row1);
  std::getline(lines, row2);
  EXPECT_FALSE(std::getline(lines, extra));
  EXPECT_EQ(header.rfind("label,start_time,", 0), 0u);
  EXPECT_EQ(row1.rfind("sweep-a,", 0), 0u);
  EXPECT_NE(row1.find(",200,"), std::string::npos) << row1;
  EXPECT_NE(row2.find(",400,"), std::string::npos) << row2;
  std::istringstream results(slurp(dir + "/vllm.jsonl"));
  std::string a, b;
  std::getline(results, a);
  std::getline(results, b);
  EXPECT_EQ(json::parse(a)["request_rate"], 200.0);
  EXPECT_EQ(json::parse(b)["request_rate"], 400.0);
  EXPECT_EQ(json::parse(b)["label"], "sweep-a");

  auto j = run_cuprobe({"bench", s.url(), "--rate", "300,600", "-n", "5", "--output-len", "1", "--json", "-q"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  json doc = json::parse(j.out);
  ASSERT_EQ(doc["sweep"].size(), 2u);
  EXPECT_EQ(doc["sweep"][1]["settings"]["rate"], 600.0);
}

TEST(BenchPeers, SglangResultIsAppendedAndCuprobeResultIsTheReport) {
  StreamServer s(fast());
  std::string dir = temp_dir();
  for (int i = 0; i < 2; ++i) {
    std::vector<std::string> args = {"bench", s.url(), "-c", "2", "-n", "6", "--output-len", "3", "--save-result"};
    args.insert(args.end(), {dir + "/sglang.jsonl", "--result-format", "sglang", "--metadata", "tp=8", "-q"});
    if (i == 1) args.push_back("--result-identity");  // SGLang's keys only, unless cuprobe's are asked for
    auto r = run_cuprobe(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  std::istringstream lines(slurp(dir + "/sglang.jsonl"));
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    json j = json::parse(line);
    EXPECT_EQ(j["completed"], 6);
    EXPECT_EQ(j["max_concurrency"], 2);
    if (n == 0) {
      EXPECT_FALSE(j.contains("cuprobe")) << line;
    } else {
      EXPECT_EQ(j["cuprobe"]["metadata"]["tp"], "8");
    }
    ++n;
  }
  EXPECT_EQ(n, 2);
  auto r = run_cuprobe({"bench", s.url(), "-n", "3", "--output-len", "2", "--save-result", dir + "/c.json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(slurp(dir + "/c.json"))["schema"], "cuprobe.bench/1");
}

TEST(BenchPeers, ServerMetricsScrapedAtTheSteadyWindow) {
  StreamServerOptions o = fast();
  o.ttft_us = 5000;
  StreamServer s(o);
  auto r =
      run_cuprobe({"bench", s.url(), "-c", "4", "-n", "40", "--output-len", "10", "--server-metrics", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(s.metrics_scrapes(), 2u);
  json m = json::parse(r.out)["server_metrics"];
  ASSERT_TRUE(m["valid"].get<bool>()) << m.dump();
  bool running = false, tokens = false, ttft = false;
  for (const json& g : m["gauges"]) {
    if (g["name"] == "vllm:num_requests_running") {
      running = true;
      EXPECT_EQ(g["labels"], "{model_name=\"test-model\",engine=\"0\"}");
      EXPECT_GE(g["end"].get<double>(), 0);
      EXPECT_LE(g["end"].get<double>(), 4);
    }
  }
  for (const json& c : m["counters"]) {
    if (c["name"] == "vllm:generation_tokens_total") {
      tokens = true;
      EXPECT_GT(c["delta"].get<double>(), 0);
      EXPECT_NEAR(c["per_s"].get<double>(), c["delta"].get<double>() / m["interval_s"].get<double>(), 1e-6);
    }
  }
  for (const json& h : m["histograms"]) {
    if (h["name"] == "vllm:time_to_first_token_seconds") {
      ttft = true;
      EXPECT_NEAR(h["mean"].get<double>(), 0.005, 1e-9);
    }
  }
  EXPECT_TRUE(running && tokens && ttft) << m.dump();
  EXPECT_NEAR(m["derived"]["vllm_prefix_cache_hit_rate"].get<double>(), 0.25, 0.05);
  for (const json& g : m["gauges"]) EXPECT_NE(g["name"], "process_open_fds");

  auto t = run_cuprobe({"bench", s.url(), "-c", "4", "-n", "40", "--output-len", "10", "--server-metrics", "-q"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("server metrics (/metrics"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("vllm:generation_tokens_total"), std::string::npos);

  StreamServerOptions sg = fast();
  sg.metrics_engine = "sglang";
  StreamServer sgl(sg);
  auto g = run_cuprobe(
      {"bench", sgl.url(), "-c", "4", "-n", "40", "--output-len", "10", "--server-metrics", "--json", "-q"});
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_NE(g.out.find("\"sglang:num_running_reqs\""), std::string::npos);

  StreamServerOptions none = fast();
  none.metrics_engine = "";
  StreamServer no_metrics(none);
  auto n = run_cuprobe(
      {"bench", no_metrics.url(), "-c", "2", "-n", "10", "--output-len", "4", "--server-metrics", "--json", "-q"});
  ASSERT_EQ(n.exit_code, 0) << n.err;  // the load's result stands; the report says why there are no metrics
  json nm = json::parse(n.out)["server_metrics"];
  EXPECT_FALSE(nm["valid"].get<bool>());
  EXPECT_NE(nm["note"].get<std::string>().find("404"), std::string::npos) << nm.dump();
}

// A gateway that checks the key on every route: /metrics is asked with it too.
TEST(BenchPeers, ServerMetricsCarryTheKey) {
  auto scrapes = std::make_shared<std::atomic<int>>(0);
  ScriptedServer s([scrapes](const ScriptedRequest& req) -> std::string {
    if (req.header("Authorization") != "Bearer K9") return http_response(401, "{\"error\":\"no key\"}");
    if (req.path == "/health") return http_response(200, "", "text/plain");
    if (req.path == "/v1/models") return http_response(200, "{\"data\":[{\"id\":\"m\"}]}");
    if (req.path == "/metrics") {
      int n = ++*scrapes;
      return http_response(200,
                           "# TYPE sglang:generation_tokens_total counter\nsglang:generation_tokens_total " +
                               std::to_string(100 * n) +
                               "\n# TYPE sglang:num_running_reqs gauge\n"
                               "sglang:num_running_reqs " +
                               std::to_string(n) + "\n",
                           "text/plain");
    }
    return sse_response({"{\"id\":\"a\",\"choices\":[{\"text\":\"hi\",\"finish_reason\":null}]}",
                         "{\"id\":\"a\",\"choices\":[{\"text\":\"yo\",\"finish_reason\":\"length\"}]}", "[DONE]"});
  });
  auto r = run_cuprobe({"bench", s.url(), "--api-key", "K9", "-c", "2", "-n", "40", "--output-len", "2",
                        "--server-metrics", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json m = json::parse(r.out)["server_metrics"];
  ASSERT_TRUE(m["valid"].get<bool>()) << m.dump();
  EXPECT_EQ(*scrapes, 2);
  EXPECT_EQ(m["counters"][0]["name"], "sglang:generation_tokens_total");
  EXPECT_EQ(m["counters"][0]["delta"], 100.0);
  EXPECT_EQ(m["gauges"][0]["end"], 2.0);
  EXPECT_EQ(m["gauges"][0]["mean"], 1.5);
}

// vLLM's calculate_metrics, applied by tests/report/vllm_formulas_check.py to
// --save-requests, gives the numbers of cuprobe's vLLM result.
TEST(BenchPeers, VllmFormulasOnSavedRequestsReproduceTheResult) {
  StreamServer s(fast());
  std::string dir = temp_dir();
  auto r = run_cuprobe({"bench",
                        s.url(),
                        "-c",
                        "6",
                        "-n",
                        "60",
                        "--warmup",
                        "6",
                        "--output-len",
                        "12",
                        "--goodput",
                        "ttft:3 tpot:2.5",
                        "--percentiles",
                        "50,90,95,99,99.9",
                        "--percentile-metrics",
                        "ttft,tpot,itl,e2el",
                        "--save-requests",
                        dir + "/requests.jsonl",
                        "--save-result",
                        dir + "/vllm.json",
                        "--result-format",
                        "vllm",
                        "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto check = run_program("/usr/bin/python3",
                           {CUPROBE_TEST_DATA_DIR "/../report/vllm_formulas_check.py", dir + "/requests.jsonl",
                            dir + "/vllm.json", "3", "2.5", "-1", "50,90,95,99,99.9"});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  std::cerr << check.out;
  EXPECT_NE(check.out.find("every figure matches"), std::string::npos) << check.out;
  // The check can fail: one figure off by a microsecond is caught.
  json result = json::parse(slurp(dir + "/vllm.json"));
  // The exact count of requests in flight never exceeds the closed loop's -c.
  EXPECT_GE(result["max_concurrent_requests"].get<int>(), 1);
  EXPECT_LE(result["max_concurrent_requests"].get<int>(), 6);
  result["p99.9_ttft_ms"] = result["p99.9_ttft_ms"].get<double>() + 0.001;
  std::ofstream(dir + "/vllm_off.json") << result.dump();
  auto off = run_program("/usr/bin/python3",
                         {CUPROBE_TEST_DATA_DIR "/../report/vllm_formulas_check.py", dir + "/requests.jsonl",
                          dir + "/vllm_off.json", "3", "2.5", "-1", "50,90,95,99,99.9"});
  EXPECT_EQ(off.exit_code, 1) << off.out << off.err;
  EXPECT_NE(off.out.find("p99.9_ttft_ms"), std::string::npos) << off.out;
}

}  // namespace
}  // namespace cuprobe::test
