#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/clock.h"
#include "common/utf8.h"
#include "net/tls_session.h"
#include "support/json_output.h"
#include "support/run_cuprobe.h"
#include "support/scripted_server.h"
#include "support/stream_server.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

using nlohmann::json;

StreamServerOptions fast() { return stream_timing(2000, 1000); }

// Answers /health and /v1/models like a ready server; completions go to `completion`.
ScriptedHandler ready_server(std::function<std::string(int index, const ScriptedRequest&)> completion) {
  auto count = std::make_shared<std::atomic<int>>(0);
  return [completion, count](const ScriptedRequest& req) {
    if (req.path == "/health") return http_response(200, "", "text/plain");
    if (req.path == "/v1/models") return http_response(200, "{\"data\":[{\"id\":\"m\"}]}");
    return completion((*count)++, req);
  };
}

// B6: a server answering with invalid UTF-8 (error body, event data, header)
// must not cost the report or the --save-requests file.
TEST(Bench, InvalidUtf8FromTheServerKeepsReportAndRequests) {
  ScriptedServer s(ready_server([](int i, const ScriptedRequest&) -> std::string {
    switch (i % 4) {
      case 0:
        return http_response(500, "bad \xff\xfe bytes \xe2\x82", "text/plain");
      case 1:
        return sse_response({"{\"id\":\"\xff\xfe\",\"choices\":[{\"text\":\"hi\",\"finish_reason\":\"length\"}]}"});
      case 2:
        return http_response(200, "<html>\xc3</html>", "text/html\xff");
      default:
        return sse_response({"{\"id\":\"ok\",\"choices\":[{\"text\":\"hi\",\"finish_reason\":\"length\"}]}", "[DONE]"});
    }
  }));
  std::string dir = temp_dir();
  auto r = run_cuprobe({"bench", s.url(), "-c", "1", "-n", "8", "--output-len", "1", "--json", "-q", "--save-requests",
                        dir + "/requests.jsonl"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  json j = json_stdout(r);
  EXPECT_EQ(j["requests"]["completed"], 2);
  EXPECT_EQ(j["requests"]["failed"], 6);
  std::string lines = slurp(dir + "/requests.jsonl");
  EXPECT_TRUE(is_valid_utf8(lines));
  std::istringstream in(lines);
  std::string line;
  int n = 0, repaired = 0;
  while (std::getline(in, line)) {
    json rec = json::parse(line, nullptr, false);
    ASSERT_FALSE(rec.is_discarded()) << line;
    ++n;
    if (rec.value("error_detail", "").find("\xEF\xBF\xBD") != std::string::npos) ++repaired;
  }
  EXPECT_EQ(n, 8);
  EXPECT_EQ(repaired, 6);
}

// B7: --timeout bounds the readiness wait too (here: a server that never answers).
TEST(Bench, TimeoutBoundsTheReadinessWait) {
  ScriptedServer s([](const ScriptedRequest&) { return std::string(); });
  std::int64_t start = mono_ns();
  auto r = run_cuprobe({"bench", s.url(), "-n", "2", "--timeout", "1500ms", "-q"});
  double took_s = (mono_ns() - start) / 1e9;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("server not ready after 1500ms (--timeout)"), std::string::npos) << r.err;
  EXPECT_LT(took_s, 5.0);
}

// A gateway that wants the key on every route: readiness, models, profiler, load.
ScriptedHandler key_checking_server(const std::string& key) {
  return [key](const ScriptedRequest& req) {
    if (req.header("Authorization") != "Bearer " + key) return http_response(401, "{\"error\":\"no key\"}");
    if (req.path == "/health") return http_response(200, "", "text/plain");
    if (req.path == "/v1/models") return http_response(200, "{\"data\":[{\"id\":\"m\"}]}");
    if (req.path == "/start_profile" || req.path == "/stop_profile") return http_response(200, "ok", "text/plain");
    return sse_response({"{\"id\":\"a\",\"choices\":[{\"text\":\"hi\",\"finish_reason\":\"length\"}]}", "[DONE]"});
  };
}

TEST(Bench, HeadersAnywhereReachEveryRoute) {
  ScriptedServer s(key_checking_server("KEY"));
  auto r = run_cuprobe({"bench", "-H", "Authorization: Bearer KEY", s.url(), "-H", "X-Team: a", "-c", "1", "-n", "3",
                        "--output-len", "1", "--profile", "vllm", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  EXPECT_EQ(j["requests"]["completed"], 3);
  EXPECT_TRUE(j["profile"]["start"]["ok"].get<bool>()) << j["profile"];
  std::set<std::string> paths;
  for (const auto& req : s.requests()) {
    paths.insert(req.path);
    EXPECT_EQ(req.header("Authorization"), "Bearer KEY") << req.path;
    EXPECT_EQ(req.header("X-Team"), "a") << req.path;
  }
  EXPECT_EQ(paths,
            (std::set<std::string>{"/health", "/v1/models", "/v1/completions", "/start_profile", "/stop_profile"}));
}

TEST(Bench, ApiKeyOptionAndEnvironment) {
  ScriptedServer s(key_checking_server("K2"));
  auto r = run_cuprobe({"bench", s.url(), "--api-key", "K2", "-n", "2", "--output-len", "1", "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  setenv("OPENAI_API_KEY", "K2", 1);
  r = run_cuprobe({"bench", s.url(), "-n", "2", "--output-len", "1", "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cuprobe({"wait", s.url(), "--timeout", "5s"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // An explicit Authorization header wins over the environment.
  r = run_cuprobe({"wait", s.url(), "-H", "Authorization: Bearer wrong", "--timeout", "300ms", "-q"});
  unsetenv("OPENAI_API_KEY");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("401"), std::string::npos) << r.err;
}

// Runs cuprobe with RLIMIT_NOFILE soft/hard (as `ulimit -n` would); stderr into err.
int run_cuprobe_with_nofile(rlim_t soft, rlim_t hard, const std::vector<std::string>& args, std::string& err) {
  std::string err_file = temp_dir() + "/stderr";
  pid_t pid = fork();
  if (pid == 0) {
    rlimit lim{soft, hard};
    int out = open("/dev/null", O_WRONLY);
    int errfd = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (setrlimit(RLIMIT_NOFILE, &lim) != 0 || out < 0 || errfd < 0) _exit(90);
    dup2(out, 1);
    dup2(errfd, 2);
    std::vector<std::string> copy = args;
    std::string binary = CUPROBE_BINARY;
    std::vector<char*> argv = {binary.data()};
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  err = slurp(err_file);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

// `ulimit -n 64` used to lose most of -c 100: the soft limit is raised first.
TEST(Bench, DescriptorLimitIsRaisedForTheConcurrency) {
  StreamServer s(fast());
  std::string err;
  EXPECT_EQ(
      run_cuprobe_with_nofile(64, 8192, {"bench", s.url(), "-c", "100", "-n", "200", "--output-len", "2", "-q"}, err),
      0)
      << err;
  EXPECT_EQ(
      run_cuprobe_with_nofile(64, 64, {"bench", s.url(), "-c", "100", "-n", "200", "--output-len", "2", "-q"}, err), 1);
  EXPECT_NE(err.find("concurrency 100 cannot run: need 164 open files, the hard limit is 64"), std::string::npos)
      << err;
}

// Servers that reject unknown fields: a probe request finds out and the run
// leaves the field out; --no-stream-options does so from the start.
TEST(Bench, NoStreamOptionsForStrictServers) {
  ScriptedServer s(ready_server([](int, const ScriptedRequest& req) {
    if (req.body.find("stream_options") != std::string::npos) {
      return http_response(
          422, "{\"detail\":[{\"loc\":[\"body\",\"stream_options\"],\"msg\":\"extra fields not permitted\"}]}");
    }
    return sse_response({"{\"id\":\"a\",\"choices\":[{\"text\":\"hi\",\"finish_reason\":\"length\"}]}", "[DONE]"});
  }));
  // Without the option: the probe request is rejected, the run goes without the field and says so.
  auto r = run_cuprobe({"bench", s.url(), "-n", "2", "--output-len", "1", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json probed = json_stdout(r);
  EXPECT_EQ(probed["settings"]["fields_dropped"], json::array({"stream_options"}));
  EXPECT_FALSE(probed["settings"]["stream_options"].get<bool>());
  EXPECT_EQ(probed["requests"]["completed"], 2);
  EXPECT_NE(probed["settings"]["notes"][0].get<std::string>().find("rejected stream_options"), std::string::npos);
  r = run_cuprobe({"bench", s.url(), "-n", "1", "--output-len", "1", "-q"});
  EXPECT_NE(r.out.find("note: the server rejected stream_options (HTTP 400/422): requests are sent without it"),
            std::string::npos)
      << r.out;
  r = run_cuprobe({"bench", s.url(), "-n", "2", "--output-len", "1", "--no-stream-options", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  EXPECT_FALSE(j["settings"]["stream_options"].get<bool>());
  EXPECT_EQ(j["requests"]["usage_missing"], 2);
  EXPECT_DOUBLE_EQ(j["all"]["output_tokens"].get<double>(), 2);
}

// https against the suite's TLS server (a self-signed certificate made here):
// verified with --cacert, refused without it, accepted with --insecure.
TEST(Bench, HttpsVerifiesTheCertificate) {
  std::string why;
  if (!tls_available(why)) GTEST_SKIP() << why;
  std::string dir = temp_dir();
  if (!make_self_signed_certificate(dir, "IP:127.0.0.1,DNS:localhost")) GTEST_SKIP() << "no openssl command";
  ScriptedServer s(key_checking_server("KEY"), TlsContext::server(dir + "/cert.pem", dir + "/key.pem"));
  ASSERT_EQ(s.url().substr(0, 8), "https://");
  auto r = run_cuprobe({"bench", s.url(), "--cacert", dir + "/cert.pem", "--api-key", "KEY", "-c", "1", "-n", "3",
                        "--output-len", "1", "--profile", "vllm", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  EXPECT_EQ(j["requests"]["completed"], 3);
  EXPECT_EQ(j["settings"]["url"], s.url());
  EXPECT_TRUE(j["profile"]["start"]["ok"].get<bool>());
  r = run_cuprobe({"bench", s.url(), "--api-key", "KEY", "-n", "1", "--wait-timeout", "300ms", "-q"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("certificate verify failed"), std::string::npos) << r.err;
  r = run_cuprobe({"bench", s.url(), "--api-key", "KEY", "-n", "2", "--no-wait", "--json", "-q"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(json_stdout(r)["requests"]["errors"]["tls_failed"], 2);
  r = run_cuprobe({"bench", s.url(), "--insecure", "--api-key", "KEY", "-n", "2", "--output-len", "1", "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Several handshakes in flight at once in the load loop.
  r = run_cuprobe({"bench", s.url(), "--cacert", dir + "/cert.pem", "--api-key", "KEY", "-c", "4", "-n", "12",
                   "--output-len", "1", "--rate", "200", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_stdout(r)["requests"]["completed"], 12);
  r = run_cuprobe({"wait", s.url(), "--cacert", dir + "/cert.pem", "--api-key", "KEY", "--timeout", "5s"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// What TLS adds: the handshake, inside every request's TTFT (one connection
// per request). Prints both medians (docs/bench.md quotes them).
TEST(Bench, HttpsAddsTheHandshakeToTtft) {
  std::string why;
  if (!tls_available(why)) GTEST_SKIP() << why;
  std::string dir = temp_dir();
  if (!make_self_signed_certificate(dir, "IP:127.0.0.1")) GTEST_SKIP() << "no openssl command";
  auto answer = [](const ScriptedRequest& req) {
    if (req.path == "/v1/completions") {
      return sse_response({"{\"id\":\"a\",\"choices\":[{\"text\":\"hi\",\"finish_reason\":\"length\"}]}", "[DONE]"});
    }
    return http_response(200, "{\"data\":[{\"id\":\"m\"}]}");
  };
  ScriptedServer plain(answer);
  ScriptedServer tls(answer, TlsContext::server(dir + "/cert.pem", dir + "/key.pem"));
  double ttft[2];
  for (int i = 0; i < 2; ++i) {
    std::vector<std::string> args = {
        "bench", i == 0 ? plain.url() : tls.url(), "-n", "50", "--output-len", "1", "--json", "-q"};
    if (i == 1) args.insert(args.end(), {"--cacert", dir + "/cert.pem"});
    auto r = run_cuprobe(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ttft[i] = json_stdout(r)["all"]["ttft_ms"]["p50"].get<double>();
  }
  std::printf("TTFT p50 over 50 requests: http %.3f ms, https %.3f ms (handshake +%.3f ms)\n", ttft[0], ttft[1],
              ttft[1] - ttft[0]);
  EXPECT_LT(ttft[1], ttft[0] + 100.0);
}

// A cuprobe built without libssl-dev says so in one line (the build with OpenSSL checks --insecure only).
TEST(Bench, HttpsWithoutOpensslIsOneLine) {
  EXPECT_EQ(run_cuprobe({"bench", "http://127.0.0.1:1", "--insecure"}).exit_code, 2);
  std::string why;
  if (tls_available(why)) GTEST_SKIP() << "built with OpenSSL";
  auto r = run_cuprobe({"bench", "https://127.0.0.1:1", "-n", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("built without OpenSSL"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

TEST(Bench, JsonReportHasTheContractFields) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url(), "-c", "4", "-n", "24", "--output-len", "10", "--input-len", "20", "--warmup",
                        "4", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  EXPECT_EQ(j["schema"], "cuprobe.bench/1");
  EXPECT_EQ(j["settings"]["url"], s.url());
  EXPECT_EQ(j["settings"]["endpoint"], "/v1/completions");
  EXPECT_EQ(j["settings"]["concurrency"], 4);
  EXPECT_EQ(j["settings"]["model"], "test-model");  // from /v1/models
  EXPECT_EQ(j["requests"]["completed"], 24);
  EXPECT_EQ(j["requests"]["failed"], 0);
  EXPECT_EQ(j["requests"]["warmup"], 4);
  EXPECT_TRUE(j["requests"]["errors"].is_object());
  for (const char* w : {"all", "steady"}) {
    const json& m = j[w];
    for (const char* k : {"duration_s", "request_per_s", "output_tokens_per_s", "total_tokens_per_s"}) {
      EXPECT_TRUE(m[k].is_number()) << w << "." << k;
      EXPECT_GT(m[k].get<double>(), 0) << w << "." << k;
    }
    for (const char* d : {"ttft_ms", "itl_ms", "tpot_ms", "e2e_ms"}) {
      for (const char* stat : {"mean", "p50", "p90", "p99", "max"}) {
        EXPECT_TRUE(m[d][stat].is_number()) << w << "." << d << "." << stat;
      }
    }
  }
  // The server's timing shows through: no first token before 2 ms, no last one before 2 + 9 x 1 ms.
  // (Lower bounds only: on a busy machine the server thread may send late, never early.)
  EXPECT_GE(j["all"]["ttft_ms"]["p50"].get<double>(), 2.0);
  EXPECT_GE(j["all"]["e2e_ms"]["p50"].get<double>(), 11.0);
  EXPECT_EQ(j["all"]["itl_ms"]["count"], 24 * 9);
  EXPECT_EQ(j["all"]["tpot_ms"]["count"], 24);
  EXPECT_DOUBLE_EQ(j["all"]["output_tokens"].get<double>(), 240);
  EXPECT_LE(j["steady"]["duration_s"].get<double>(), j["all"]["duration_s"].get<double>());
  EXPECT_GE(j["steady"]["start_ns"].get<std::int64_t>(), j["all"]["start_ns"].get<std::int64_t>());
  // One clock: CLOCK_REALTIME ns (after 2020).
  EXPECT_GT(j["all"]["start_ns"].get<std::int64_t>(), 1'577'836'800'000'000'000);
  EXPECT_FALSE(j.contains("sample"));
  EXPECT_FALSE(j.contains("profile"));
}

TEST(Bench, TextReportAndEndpointFromUrl) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url() + "/v1/chat/completions", "-c", "2", "-n", "8", "--output-len", "5", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("/v1/chat/completions"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("8 completed, 0 failed"), std::string::npos) << r.out;
  for (const char* row : {"TTFT", "ITL", "TPOT", "E2E", "output tok/s"}) EXPECT_NE(r.out.find(row), std::string::npos);
  EXPECT_EQ(s.served().at(0).path, "/v1/chat/completions");
}

TEST(Bench, GenerateEndpointAndOpenLoop) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url(), "--endpoint", "/generate", "--rate", "100", "--arrival", "constant", "-n",
                        "10", "--output-len", "4", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  EXPECT_EQ(j["settings"]["mode"], "open_loop");
  EXPECT_EQ(j["requests"]["completed"], 10);
  EXPECT_TRUE(j["all"]["queue_ms"]["p99"].is_number());
  EXPECT_EQ(s.served().at(0).path, "/generate");
}

TEST(Bench, ProfileSglangInsideTheSteadyWindow) {
  StreamServerOptions o = fast();
  o.itl_us = 3000;  // ~30 ms requests: the stop call has time to land before the drain's first end
  StreamServer s(o);
  auto r = run_cuprobe({"bench", s.url(), "-c", "4", "-n", "40", "--output-len", "10", "--profile", "sglang",
                        "--profile-dir", "/tmp/traces", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  auto calls = s.profile_calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].path, "/start_profile");
  EXPECT_EQ(calls[1].path, "/stop_profile");
  json body = json::parse(calls[0].body);
  EXPECT_EQ(body["output_dir"], "/tmp/traces");
  EXPECT_EQ(body["activities"], json::array({"CPU", "GPU"}));
  const json& p = j["profile"];
  EXPECT_EQ(p["kind"], "sglang");
  EXPECT_TRUE(p["start"]["ok"].get<bool>());
  EXPECT_TRUE(p["stop"]["ok"].get<bool>());
  EXPECT_EQ(p["start"]["response"], "Start profiling.");
  EXPECT_NE(p["trace_location"].get<std::string>().find("/tmp/traces"), std::string::npos);
  EXPECT_TRUE(p["inside_steady_window"].get<bool>());
  EXPECT_GE(p["start"]["sent_ns"].get<std::int64_t>(), j["steady"]["start_ns"].get<std::int64_t>());
  EXPECT_LE(p["stop"]["sent_ns"].get<std::int64_t>(), j["steady"]["end_ns"].get<std::int64_t>());
  // The server got both calls inside the steady window (its clock: CLOCK_REALTIME, as the report's).
  EXPECT_GE(calls[0].realtime_ns, j["steady"]["start_ns"].get<std::int64_t>());
  EXPECT_LE(calls[1].realtime_ns, j["steady"]["end_ns"].get<std::int64_t>());
  EXPECT_LT(calls[0].realtime_ns, calls[1].realtime_ns);
}

TEST(Bench, ProfileVllmAndSglangNumSteps) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url(), "-c", "2", "-n", "10", "--output-len", "5", "--profile", "vllm", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("VLLM_TORCH_PROFILER_DIR"), std::string::npos) << r.out;
  auto calls = s.profile_calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].body, "");
  StreamServer s2(fast());
  r = run_cuprobe({"bench", s2.url(), "-c", "2", "-n", "10", "--output-len", "5", "--profile", "sglang",
                   "--profile-steps", "5", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  calls = s2.profile_calls();
  ASSERT_EQ(calls.size(), 1u);  // the server stops by itself after num_steps
  EXPECT_EQ(json::parse(calls[0].body)["num_steps"], 5);
  EXPECT_TRUE(json_stdout(r)["profile"]["auto_stop"].get<bool>());
}

TEST(Bench, NoSteadyStateMeansNoProfile) {
  StreamServer s(fast());
  auto r =
      run_cuprobe({"bench", s.url(), "-c", "4", "-n", "4", "--output-len", "5", "--profile", "sglang", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json_stdout(r);
  EXPECT_TRUE(s.profile_calls().empty());
  EXPECT_FALSE(j["steady"]["valid"].get<bool>());
  EXPECT_NE(j["profile"]["note"].get<std::string>().find("no steady state"), std::string::npos);
  EXPECT_FALSE(j["profile"]["inside_steady_window"].get<bool>());
}

TEST(Bench, SampleWithoutCountersFailsBeforeAnyLoad) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url(), "-c", "2", "-n", "4", "--output-len", "3", "--sample", "-q"});
  if (r.exit_code == 0) GTEST_SKIP() << "this machine can read GPU counters";
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("cuprobe bench: "), std::string::npos);
  EXPECT_TRUE(s.served().empty()) << "load was sent before the counters were refused";
  r = run_cuprobe(
      {"bench", s.url(), "-c", "2", "-n", "4", "--output-len", "3", "--sample", "--sample-optional", "--json", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(json_stdout(r)["sample"]["note"].get<std::string>().find("unavailable"), std::string::npos);
}

TEST(Bench, FaultsAreCountedAndErrorRateDecidesTheExitCode) {
  StreamServer s(fast());
  std::string dir = temp_dir();
  std::string dataset = dir + "/prompts.jsonl";
  std::ofstream(dataset) << "{\"prompt\": \"hello there\"}\n{\"prompt\": \"fault:http_500\"}\n"
                            "{\"prompt\": \"fault:stall\"}\n{\"prompt\": \"fault:malformed_json\"}\n";
  std::vector<std::string> args = {"bench",
                                   s.url(),
                                   "-c",
                                   "4",
                                   "-n",
                                   "8",
                                   "--output-len",
                                   "6",
                                   "--dataset",
                                   dataset,
                                   "--request-timeout",
                                   "300ms",
                                   "--json",
                                   "-q",
                                   "--save-requests",
                                   dir + "/requests.jsonl"};
  auto r = run_cuprobe(args);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("error rate 75.0%"), std::string::npos) << r.err;
  json j = json_stdout(r);
  EXPECT_EQ(j["requests"]["completed"], 2);
  EXPECT_EQ(j["requests"]["failed"], 6);
  EXPECT_EQ(j["requests"]["errors"]["http_500"], 2);
  EXPECT_EQ(j["requests"]["errors"]["timeout"], 2);
  EXPECT_EQ(j["requests"]["errors"]["malformed_sse"], 2);
  EXPECT_FALSE(j["requests"]["passed"].get<bool>());
  std::ifstream lines(dir + "/requests.jsonl");
  std::string line;
  int n = 0, with_error = 0;
  while (std::getline(lines, line)) {
    json rec = json::parse(line);
    ++n;
    if (!rec["ok"].get<bool>()) ++with_error;
  }
  EXPECT_EQ(n, 8);
  EXPECT_EQ(with_error, 6);
  args.insert(args.end(), {"--max-error-rate", "0.8"});
  EXPECT_EQ(run_cuprobe(args).exit_code, 0);
}

TEST(Bench, ConnectionRefusedReportsAndExits) {
  std::string url;
  {
    StreamServer s;
    url = s.url();
  }
  auto r = run_cuprobe({"bench", url, "--no-wait", "-c", "2", "-n", "6", "--json", "-q"});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // unreachable is a failure, not a threshold (4)
  EXPECT_NE(r.err.find("cannot reach " + url), std::string::npos) << r.err;
  EXPECT_EQ(json_stdout(r)["requests"]["errors"]["connect_refused"], 6);
  r = run_cuprobe({"bench", url, "--wait-timeout", "300ms", "-n", "2", "-q"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("server not ready"), std::string::npos) << r.err;
}

TEST(Bench, WholeRunTimeoutNeverHangs) {
  StreamServer s(fast());
  auto r = run_cuprobe({"bench", s.url(), "-c", "2", "-n", "2", "--extra-body", "{\"prompt\": \"fault:stall\"}",
                        "--timeout", "500ms", "--json", "-q"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  json j = json_stdout(r);
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_TRUE(j["run"]["timed_out"].get<bool>());
  EXPECT_EQ(j["requests"]["errors"]["run_timeout"], 2);
}

TEST(Bench, UsageErrors) {
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"bench"},
           {"bench", "ftp://h/v1/completions"},
           {"bench", "http://127.0.0.1:1", "--endpoint", "/v1/embeddings"},
           {"bench", "http://127.0.0.1:1/generate", "--endpoint", "/v1/completions"},
           {"bench", "http://127.0.0.1:1", "--arrival", "bursty"},
           {"bench", "http://127.0.0.1:1", "-c", "0"},
           {"bench", "http://127.0.0.1:1", "--max-error-rate", "2"},
           {"bench", "http://127.0.0.1:1", "--profile", "tgi"},
           {"bench", "http://127.0.0.1:1", "--profile", "vllm", "--profile-steps", "3"},
           {"bench", "http://127.0.0.1:1", "--extra-body", "[1]"},
           {"bench", "http://127.0.0.1:1", "-H", "no colon"},
           {"bench", "http://127.0.0.1:1", "--duration", "forever"}}) {
    auto r = run_cuprobe(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
    EXPECT_FALSE(r.err.empty());
  }
  auto r = run_cuprobe({"bench", "http://127.0.0.1:1", "--dataset", "/nonexistent.jsonl"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent.jsonl"), std::string::npos);
  EXPECT_EQ(run_cuprobe({"bench", "--help"}).exit_code, 0);
}

}  // namespace
}  // namespace cuprobe::test
