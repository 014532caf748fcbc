#include "load/load_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "common/clock.h"
#include "load/request_builder.h"
#include "support/scripted_server.h"
#include "support/stream_server.h"

namespace cuprobe {
namespace {

using test::StreamServer;
using test::StreamServerOptions;

struct Recorder final : LoadObserver {
  int steady = 0, issue_end = 0;
  void on_steady_start(std::int64_t) override { ++steady; }
  void on_issue_end(std::int64_t) override { ++issue_end; }
};

LoadOptions options_for(const StreamServer& s) {
  LoadOptions o;
  o.port = s.port();
  o.request_timeout_ns = 5'000'000'000;
  o.run_timeout_ns = 20'000'000'000;
  return o;
}

LoadResult run(const LoadOptions& o, std::int64_t tokens, const std::function<std::string(std::uint64_t)>& prompt_for,
               const char* path = "/v1/completions", LoadObserver* observer = nullptr) {
  RequestTemplate t;
  t.api = o.api;
  t.path = path;
  t.authority = "127.0.0.1:" + std::to_string(o.port);
  t.model = "test-model";
  RequestFactory f = [&](std::uint64_t i) {
    Prompt p;
    p.text = prompt_for(i);
    p.max_tokens = tokens;
    return build_http_request(t, p);
  };
  Recorder fallback;
  return run_load(o, f, observer ? *observer : fallback);
}

std::string plain(std::uint64_t i) { return "word number " + std::to_string(i); }

int max_in_flight(const std::vector<RequestRecord>& rs) {
  std::vector<std::pair<std::int64_t, int>> edges;
  for (const auto& r : rs) {
    edges.push_back({r.send_ns, 1});
    edges.push_back({r.end_ns, -1});
  }
  std::sort(edges.begin(), edges.end());  // an end before a start at the same instant
  int now = 0, most = 0;
  for (auto [t, d] : edges) most = std::max(most, now += d);
  return most;
}

TEST(LoadRunner, ClosedLoopCompletesEveryRequestWithUsage) {
  StreamServerOptions so;
  so.ttft_us = 1000;
  so.itl_us = 500;
  StreamServer s(so);
  LoadOptions o = options_for(s);
  o.concurrency = 4;
  o.requests = 20;
  Recorder rec;
  LoadResult r = run(o, 8, plain, "/v1/completions", &rec);
  ASSERT_EQ(r.records.size(), 20u);
  std::set<std::string> ids;
  for (const auto& x : r.records) {
    EXPECT_TRUE(x.ok()) << x.error << ": " << x.error_detail;
    EXPECT_EQ(x.content_ns.size(), 8u);
    EXPECT_EQ(x.completion_tokens, 8);
    EXPECT_EQ(x.prompt_tokens, 3);
    EXPECT_EQ(x.http_status, 200);
    EXPECT_GE(x.content_ns.front() - x.send_ns, 1'000'000);  // the server waits 1 ms for the first token
    ids.insert(x.response_id);
  }
  EXPECT_EQ(ids.size(), 20u);
  EXPECT_EQ(max_in_flight(r.records), 4);
  EXPECT_EQ(rec.steady, 1);
  EXPECT_EQ(rec.issue_end, 1);
  EXPECT_GT(r.steady_start_ns, r.start_ns);
  EXPECT_GE(r.end_ns, r.issue_end_ns);
  EXPECT_FALSE(r.run_timed_out);
  auto served = s.served();
  ASSERT_EQ(served.size(), 20u);
  EXPECT_TRUE(served[0].ignore_eos);
  EXPECT_TRUE(served[0].include_usage);
}

TEST(LoadRunner, ChatGenerateAndMultiTokenEvents) {
  StreamServerOptions so;
  so.ttft_us = 200;
  so.itl_us = 200;
  so.tokens_per_event = 3;
  StreamServer s(so);
  for (auto [api, path] :
       {std::pair{ApiKind::kChat, "/v1/chat/completions"}, std::pair{ApiKind::kGenerate, "/generate"}}) {
    LoadOptions o = options_for(s);
    o.api = api;
    o.concurrency = 2;
    o.requests = 4;
    LoadResult r = run(o, 9, plain, path);
    ASSERT_EQ(r.records.size(), 4u);
    for (const auto& x : r.records) {
      EXPECT_TRUE(x.ok()) << path << ": " << x.error << " " << x.error_detail;
      EXPECT_EQ(x.content_ns.size(), 3u) << path;  // the chat role event is not content
      EXPECT_EQ(x.completion_tokens, 9) << path;
    }
  }
}

TEST(LoadRunner, EveryFaultEndsAsAnErrorWithItsReason) {
  StreamServerOptions so;
  so.ttft_us = 500;
  so.itl_us = 500;
  StreamServer s(so);
  const std::vector<std::pair<std::string, std::string>> faults = {{"http_500", "http_500"},
                                                                   {"http_400", "http_400"},
                                                                   {"stall", "timeout"},
                                                                   {"close_mid", "server_closed"},
                                                                   {"malformed_json", "malformed_sse"},
                                                                   {"error_event", "stream_error"},
                                                                   {"bad_chunk", "bad_chunk"},
                                                                   {"huge_header", "header_too_large"},
                                                                   {"bad_status", "malformed_http"},
                                                                   {"no_done", "truncated_stream"},
                                                                   {"no_usage", ""},
                                                                   {"comments", ""}};
  LoadOptions o = options_for(s);
  o.concurrency = static_cast<int>(faults.size());
  o.requests = faults.size();
  o.request_timeout_ns = 300'000'000;
  std::int64_t t0 = mono_ns();
  LoadResult r = run(o, 8, [&](std::uint64_t i) { return "please fault:" + faults[i].first + " thanks"; });
  EXPECT_LT(mono_ns() - t0, 3'000'000'000) << "a fault made the run hang";
  ASSERT_EQ(r.records.size(), faults.size());
  for (const auto& x : r.records) {
    const auto& [fault, reason] = faults[x.index];
    EXPECT_EQ(x.error, reason) << fault << ": " << x.error_detail;
    if (!reason.empty()) {
      EXPECT_FALSE(x.error_detail.empty()) << fault;
    }
    if (fault == "http_500") {
      EXPECT_EQ(x.http_status, 500);
      EXPECT_NE(x.error_detail.find("injected failure"), std::string::npos);
    }
    if (fault == "error_event") {
      EXPECT_EQ(x.error_detail, "injected error");
    }
    if (fault == "no_usage") {
      EXPECT_FALSE(x.usage_reported());
      EXPECT_EQ(x.output_tokens(), 8);
    }
    if (fault == "comments") {
      EXPECT_EQ(x.content_ns.size(), 8u);
    }
  }
}

TEST(LoadRunner, ConnectionRefusedEndsEveryRequest) {
  std::uint16_t port;
  {
    StreamServer s;  // learn a free port, then nothing listens there
    port = s.port();
  }
  LoadOptions o;
  o.port = port;
  o.concurrency = 1;
  o.requests = 200;
  std::int64_t t0 = mono_ns();
  LoadResult r = run(o, 4, plain);
  EXPECT_LT(mono_ns() - t0, 3'000'000'000);  // fails fast, one by one
  ASSERT_EQ(r.records.size(), 200u);
  for (const auto& x : r.records) EXPECT_EQ(x.error, "connect_refused") << x.error_detail;
}

TEST(LoadRunner, ServerDyingMidRun) {
  StreamServerOptions so;
  so.ttft_us = 1000;
  so.itl_us = 5000;
  auto s = std::make_unique<StreamServer>(so);
  LoadOptions o = options_for(*s);
  o.concurrency = 8;
  o.requests = 40;
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    s->stop();
  });
  std::int64_t t0 = mono_ns();
  LoadResult r = run(o, 20, plain);
  killer.join();
  EXPECT_LT(mono_ns() - t0, 5'000'000'000);
  std::map<std::string, int> reasons;
  for (const auto& x : r.records) ++reasons[x.error];
  EXPECT_EQ(r.records.size(), 40u);
  EXPECT_GE(reasons["server_closed"], 1);  // the streams that were cut
  EXPECT_EQ(reasons["server_closed"] + reasons["connect_refused"] + reasons[""], 40);
}

TEST(LoadRunner, RunTimeoutBoundsStalledStreams) {
  StreamServer s;
  LoadOptions o = options_for(s);
  o.concurrency = 3;
  o.requests = 3;
  o.request_timeout_ns = 3600'000'000'000;
  o.run_timeout_ns = 300'000'000;
  std::int64_t t0 = mono_ns();
  LoadResult r = run(o, 8, [](std::uint64_t) { return std::string("fault:stall"); });
  EXPECT_LT(mono_ns() - t0, 2'000'000'000);
  EXPECT_TRUE(r.run_timed_out);
  ASSERT_EQ(r.records.size(), 3u);
  for (const auto& x : r.records) EXPECT_EQ(x.error, "run_timeout");
}

TEST(LoadRunner, OpenLoopConstantRateAndCapQueues) {
  StreamServerOptions so;
  so.ttft_us = 500;
  so.itl_us = 500;
  StreamServer s(so);
  LoadOptions o = options_for(s);
  o.rate = 200;
  o.arrival = Arrival::kConstant;
  o.concurrency = 0;
  o.requests = 30;
  LoadResult r = run(o, 2, plain);
  ASSERT_EQ(r.records.size(), 30u);
  for (std::size_t i = 1; i < r.records.size(); ++i) {
    EXPECT_EQ(r.records[i].scheduled_ns - r.records[i - 1].scheduled_ns, 5'000'000);
  }
  double span_ms = (r.records.back().send_ns - r.records.front().send_ns) / 1e6;
  EXPECT_NEAR(span_ms, 145, 30);
  // With a cap of 2 in flight and 10 ms requests arriving every 1 ms, requests queue in the client.
  o.rate = 1000;
  o.concurrency = 2;
  o.requests = 20;
  r = run(o, 10, plain);
  ASSERT_EQ(r.records.size(), 20u);
  EXPECT_LE(max_in_flight(r.records), 2);
  EXPECT_GT(r.records.back().send_ns - r.records.back().scheduled_ns, 20'000'000);
}

TEST(LoadRunner, ReplayedScheduleSendsAtItsTimes) {
  StreamServerOptions so;
  so.ttft_us = 200;
  so.itl_us = 200;
  StreamServer s(so);
  LoadOptions o = options_for(s);
  o.rate = 5;  // ignored: the schedule decides
  o.concurrency = 0;
  o.requests = 100;  // more than the schedule holds: the schedule ends the plan
  o.arrival_offsets_ns = {0, 0, 30'000'000, 31'000'000, 90'000'000, 150'000'000};
  LoadResult r = run(o, 2, plain);
  ASSERT_EQ(r.records.size(), 6u);
  for (std::size_t i = 0; i < r.records.size(); ++i) {
    EXPECT_EQ(r.records[i].scheduled_ns - r.records[0].scheduled_ns, o.arrival_offsets_ns[i]) << i;
    EXPECT_LT(r.records[i].send_ns - r.records[i].scheduled_ns, 15'000'000) << "sent on time: " << i;
    EXPECT_TRUE(r.records[i].ok()) << r.records[i].error;
  }
  // The run lasts the schedule: it ends after the last arrival (the run's start is the first
  // send, which may be late by up to the tolerance above, so the schedule's origin is the base).
  EXPECT_GE(r.end_ns - r.records[0].scheduled_ns, 150'000'000);
  // A request count below the schedule's length ends it first.
  o.requests = 3;
  r = run(o, 1, plain);
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records[2].scheduled_ns - r.records[0].scheduled_ns, 30'000'000);
}

TEST(LoadRunner, PoissonArrivalsAverageTheRate) {
  StreamServerOptions so;
  so.ttft_us = 100;
  so.itl_us = 100;
  StreamServer s(so);
  LoadOptions o = options_for(s);
  o.rate = 2000;
  o.concurrency = 0;
  o.requests = 400;
  o.seed = 7;
  LoadResult r = run(o, 1, plain);
  ASSERT_EQ(r.records.size(), 400u);
  double mean_gap_ms = (r.records.back().scheduled_ns - r.records.front().scheduled_ns) / 1e6 / 399;
  EXPECT_NEAR(mean_gap_ms, 0.5, 0.1);
  std::set<std::int64_t> gaps;
  for (std::size_t i = 1; i < r.records.size(); ++i)
    gaps.insert(r.records[i].scheduled_ns - r.records[i - 1].scheduled_ns);
  EXPECT_GT(gaps.size(), 300u);  // not constant
}

TEST(LoadRunner, WarmupAndDuration) {
  StreamServerOptions so;
  so.ttft_us = 1000;
  so.itl_us = 1000;
  StreamServer s(so);
  LoadOptions o = options_for(s);
  o.concurrency = 2;
  o.requests = 6;
  o.warmup_requests = 3;
  LoadResult r = run(o, 2, plain);
  ASSERT_EQ(r.records.size(), 9u);
  for (const auto& x : r.records) EXPECT_EQ(x.warmup, x.index < 3) << x.index;
  o.requests = 0;
  o.warmup_requests = 0;
  o.duration_ns = 200'000'000;
  r = run(o, 4, plain);
  EXPECT_GT(r.records.size(), 10u);
  double issuing_ms = (r.issue_end_ns - r.start_ns) / 1e6;
  EXPECT_GE(issuing_ms, 195);
  EXPECT_LT(issuing_ms, 400);
  for (const auto& x : r.records) EXPECT_LE(x.send_ns, r.start_ns + 200'000'000);
}

struct TimingErrors {
  double ttft50, ttft99, itl50, itl99;
  bool within(double ms) const { return ttft50 < ms && ttft99 < ms && itl50 < ms && itl99 < ms; }
};

TimingErrors measure_timing_errors(int streams) {
  StreamServerOptions so;
  so.ttft_us = 20000;
  so.itl_us = 30000;
  so.itl_spread_us = 15000;  // requests run at 30..45 ms per token, so their events interleave
  StreamServer s(so);
  LoadOptions o = options_for(s);
  o.concurrency = streams;
  o.requests = static_cast<std::uint64_t>(streams) * 2;
  LoadResult r = run(o, 16, plain);
  std::map<std::string, const test::ServedRequest*> truth;
  auto served = s.served();
  for (const auto& sr : served) truth[sr.id] = &sr;
  std::vector<double> ttft_err, itl_err;
  for (const auto& x : r.records) {
    EXPECT_TRUE(x.ok()) << x.error << ": " << x.error_detail;
    if (!x.ok()) continue;
    const test::ServedRequest* t = truth.at(x.response_id);
    EXPECT_EQ(t->event_ns.size(), x.content_ns.size());
    if (t->event_ns.size() != x.content_ns.size()) continue;
    EXPECT_LE(x.send_ns, t->recv_ns);  // one clock
    ttft_err.push_back(std::abs(x.content_ns[0] - t->event_ns[0]) / 1e6);
    for (std::size_t i = 1; i < x.content_ns.size(); ++i) {
      itl_err.push_back(std::abs((x.content_ns[i] - x.content_ns[i - 1]) - (t->event_ns[i] - t->event_ns[i - 1])) /
                        1e6);
    }
  }
  EXPECT_EQ(ttft_err.size(), r.records.size());
  auto pct = [](std::vector<double> v, double q) {
    if (v.empty()) return 1e9;
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q / 100 * static_cast<double>(v.size() - 1))];
  };
  TimingErrors e{pct(ttft_err, 50), pct(ttft_err, 99), pct(itl_err, 50), pct(itl_err, 99)};
  std::printf(
      "streams %d, %zu requests, %zu gaps: TTFT error p50 %.4f p99 %.4f ms; ITL error p50 %.4f p99 %.4f ms; "
      "%llu of %llu reads kernel-stamped\n",
      streams, ttft_err.size(), itl_err.size(), e.ttft50, e.ttft99, e.itl50, e.itl99,
      static_cast<unsigned long long>(r.reads_kernel_stamped), static_cast<unsigned long long>(r.reads));
  return e;
}

// The client must not distort what it measures. The server records when each
// token event left it (CLOCK_MONOTONIC, just before send(); the client uses the
// same clock), so for every request:
//   TTFT error = client's first-token time - server's first send (the client's
//                measured TTFT minus the true time from its send to the token leaving the server)
//   ITL error  = client gap - server gap, for every gap.
// Both must stay within 0.2 ms at the median and p99 with 256 streams in flight.
// The client takes arrival times from the kernel's receive timestamps
// (SO_TIMESTAMPNS), so it stays exact when its thread wakes up late; what no
// client can survive is getting no CPU for longer than a token interval (the
// kernel then merges a stream's queued events under the newest one's
// timestamp). Token intervals of 30-45 ms keep that out of reach of ordinary
// scheduling delays on a busy machine; one retry absorbs a freak stall, two
// bad runs fail.
// Under sanitizers (5-10x slower code) the same threshold is checked on a
// scaled load of 32 streams; the release build runs the full 256.
TEST(LoadRunner, TimingMatchesServerTruthAtHighConcurrency) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  const int streams = 32;
#else
  const int streams = 256;
#endif
  TimingErrors e = measure_timing_errors(streams);
  if (!e.within(0.2)) e = measure_timing_errors(streams);
  RecordProperty("ttft_err_p50_ms", std::to_string(e.ttft50));
  RecordProperty("ttft_err_p99_ms", std::to_string(e.ttft99));
  RecordProperty("itl_err_p50_ms", std::to_string(e.itl50));
  RecordProperty("itl_err_p99_ms", std::to_string(e.itl99));
  EXPECT_LT(e.ttft50, 0.2);
  EXPECT_LT(e.ttft99, 0.2);
  EXPECT_LT(e.itl50, 0.2);
  EXPECT_LT(e.itl99, 0.2);
}

}  // namespace
}  // namespace cuprobe

namespace cuprobe {
namespace {

// A server that streams far more events than max_tokens asked for: the record
// keeps the timestamps max_tokens can explain and counts the rest.
TEST(LoadRunner, MemoryPerRequestIsBoundedByMaxTokens) {
  std::string response = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
  constexpr int kEvents = 200000;
  for (int i = 0; i < kEvents; ++i) response += "data: {\"choices\":[{\"text\":\"x\"}]}\n\n";
  response += "data: {\"choices\":[{\"text\":\"x\",\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
  test::ScriptedServer s([&](const test::ScriptedRequest&) { return response; });
  LoadOptions o;
  o.port = s.port();
  o.requests = 1;
  RequestFactory f = [&](std::uint64_t) {
    return OutgoingRequest("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", 4);
  };
  Recorder obs;
  LoadResult r = run_load(o, f, obs);
  ASSERT_EQ(r.records.size(), 1u);
  const RequestRecord& rec = r.records[0];
  EXPECT_TRUE(rec.ok()) << rec.error << ": " << rec.error_detail;
  EXPECT_EQ(rec.content_events, kEvents + 1);
  EXPECT_EQ(rec.content_ns.size(), 4u + 16u);
  EXPECT_LE(rec.content_ns.capacity(), 64u);
  EXPECT_EQ(rec.output_tokens(), kEvents + 1);
}

}  // namespace
}  // namespace cuprobe

namespace cuprobe {
namespace {

SocketAddress loopback(const char* host, std::uint16_t port) {
  std::string why;
  std::vector<SocketAddress> a = resolve_addresses(host, port, why);
  EXPECT_FALSE(a.empty()) << why;
  return a.empty() ? SocketAddress{} : a.front();
}

// An IPv6-first name must still reach a server on IPv4: every address is tried.
TEST(LoadRunner, TriesEveryResolvedAddress) {
  std::uint16_t closed;
  {
    StreamServer gone;
    closed = gone.port();
  }
  StreamServer s;
  LoadOptions o = options_for(s);
  o.addresses = {loopback("::1", s.port()), loopback("127.0.0.1", closed), loopback("127.0.0.1", s.port())};
  o.concurrency = 2;
  o.requests = 6;
  LoadResult r = run(o, 2, plain);
  ASSERT_EQ(r.records.size(), 6u);
  for (const auto& x : r.records) EXPECT_TRUE(x.ok()) << x.error << ": " << x.error_detail;
}

}  // namespace
}  // namespace cuprobe
