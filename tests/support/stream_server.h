// A local streaming LLM server for the bench tests: OpenAI /v1/completions and
// /v1/chat/completions, SGLang /generate, /health, /v1/models, /start_profile,
// /stop_profile, and a Prometheus /metrics with vLLM's (or SGLang's) names
// counting what it served. It emits token events at known times from one epoll thread and
// records when each event really left (CLOCK_MONOTONIC, before send()), so
// tests can hold the client's measurements against the truth.
// Faults are asked for in the prompt: "fault:http_500", "fault:stall", ...
// (see stream_server.cpp, kFaults).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cuprobe::test {

struct StreamServerOptions {
  std::int64_t ttft_us = 2000;       // full request read → first token event
  std::int64_t itl_us = 1000;        // between token events
  std::int64_t itl_spread_us = 0;    // request r uses itl_us + (r % 8) * itl_spread_us / 7
  int tokens_per_event = 1;          // >1: several tokens per event (speculative decoding)
  std::int64_t default_tokens = 16;  // when the request sets no max_tokens
  std::int64_t loading_ms = 0;       // /health and /v1/models answer 503 for this long
  bool health_endpoint = true;       // false: /health is 404 (servers without it)
  bool chunked = true;               // false: the body ends when the connection closes
  bool record_events = true;         // keep every event's send time (tests); off for throughput runs
  std::string model = "test-model";
  std::string metrics_engine = "vllm";  // /metrics families: "vllm" or "sglang"; "" = no /metrics (404)
  // The server's tokenizer, for usage.prompt_tokens and POST /tokenize (vLLM's and
  // SGLang's shape: {"prompt", "add_special_tokens"} → {"tokens", "count", "max_model_len"}):
  // 0 = one token per word; N = each word is ceil(length / N) tokens.
  int chars_per_token = 0;
  bool tokenize_endpoint = true;  // false: /tokenize is 404 (servers without one)
  // Keep-alive: responses (chunked streams, Content-Length answers) leave the
  // connection open for the next request instead of "Connection: close".
  bool keep_alive = false;
  // With keep_alive, every Nth request that arrives on a connection that
  // already served one is answered by closing the connection, as a server
  // whose idle timeout fired just then (0 = never).
  int close_reused_every = 0;
};

// Options with these latencies (microseconds), the rest as defaulted.
inline StreamServerOptions stream_timing(std::int64_t ttft_us, std::int64_t itl_us) {
  StreamServerOptions o;
  o.ttft_us = ttft_us;
  o.itl_us = itl_us;
  return o;
}

// The test server's token count of `text` under `chars_per_token` (see StreamServerOptions).
std::int64_t stream_server_tokens(const std::string& text, int chars_per_token);

struct ServedRequest {
  std::string id;  // the response id the client sees ("cmpl-N")
  std::string path;
  std::int64_t recv_ns = 0;            // request fully read
  std::vector<std::int64_t> event_ns;  // each content event, just before send()
  std::int64_t prompt_tokens = 0, completion_tokens = 0;
  bool ignore_eos = false, include_usage = false;
  std::string prompt;  // the prompt as the server read it (chat: the messages' contents, space-joined)
  std::string head;    // the request line and headers, as received
  std::string body;    // the request body, as received
};

struct ProfileCall {
  std::string path;
  std::string body;
  std::int64_t ns = 0;           // CLOCK_MONOTONIC
  std::int64_t realtime_ns = 0;  // CLOCK_REALTIME, to hold against a report's timestamps
};

class StreamServer {
 public:
  explicit StreamServer(StreamServerOptions options = {}, std::uint16_t port = 0);
  ~StreamServer();
  StreamServer(const StreamServer&) = delete;
  StreamServer& operator=(const StreamServer&) = delete;

  std::uint16_t port() const;
  std::string url() const;  // "http://127.0.0.1:PORT"
  // Closes the listening socket and every connection at once (a server dying).
  void stop();
  std::vector<ServedRequest> served() const;
  std::vector<ProfileCall> profile_calls() const;
  std::uint64_t tokenize_calls() const;
  std::uint64_t events_sent() const;
  std::uint64_t metrics_scrapes() const;  // GET /metrics answered
  std::uint64_t connections_accepted() const;
  std::uint64_t reused_requests_dropped() const;  // closed unanswered by close_reused_every
  std::int64_t peak_streams() const;              // the most generation requests in flight at once
  // The /metrics text the server would serve now.
  std::string metrics_text() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuprobe::test
