// The load generator: one thread, one epoll loop, non-blocking HTTP/1.1
// connections kept alive between requests (one per request in flight; or one
// per request with keep_alive off), directly or through a proxy (a CONNECT
// tunnel for https). Closed loop keeps `concurrency` requests in flight;
// open loop sends at `rate` (gamma arrivals as vLLM: load/arrivals.h), optionally capped by
// `concurrency`, and counts how long a request waited for its slot.
// Every request ends with a RequestRecord, success or a reason; the loop never
// blocks on one connection and the whole run is bounded by run_timeout.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "load/arrivals.h"
#include "load/request_record.h"
#include "load/stream_decoder.h"
#include "net/proxy_settings.h"
#include "net/socket_address.h"
#include "net/tls_session.h"

namespace cuprobe {

enum class Arrival { kPoisson, kConstant };

struct LoadOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 80;
  ApiKind api = ApiKind::kCompletions;
  int concurrency = 1;                  // closed loop: in flight; open loop: cap (0 = none)
  double rate = 0;                      // requests/s; > 0 selects the open loop
  Arrival arrival = Arrival::kPoisson;  // kConstant = burstiness infinity
  double burstiness = 1.0;              // gamma shape of the gaps (1 = Poisson)
  RampUp ramp = RampUp::kNone;          // > kNone selects the open loop, rate ramped over the planned requests
  double ramp_start_rps = 0, ramp_end_rps = 0;
  std::uint64_t seed = 1;
  // Non-empty: request i is sent this long after the run's start (a replayed
  // trace's recorded times, non-decreasing); rate, burstiness and ramp are
  // ignored, `concurrency` caps as in any open loop, and the plan ends with the
  // schedule when `requests` does not end it first.
  std::vector<std::int64_t> arrival_offsets_ns;
  std::uint64_t requests = 0;         // measured requests to send; 0 = until duration
  std::int64_t duration_ns = 0;       // stop sending this long after the first measured request; 0 = none
  std::uint64_t warmup_requests = 0;  // sent first, not measured (bench runs its count warm-up apart, first)
  std::int64_t warmup_ns = 0;         // requests sent this early in the run are not measured
  std::int64_t request_timeout_ns = 600'000'000'000;
  std::int64_t run_timeout_ns = 3600'000'000'000;
  std::size_t max_header_bytes = 64 * 1024;
  std::size_t max_error_body = 2048;  // bytes of a 4xx/5xx body kept in the error detail
  // Content timestamps kept per request when its max_tokens is unknown; with a
  // known max_tokens, that many (plus a little) are kept. Later events are counted.
  std::size_t max_token_stamps = 65536;
  // Keep each request's generated text (RequestRecord::generated_text): vLLM's
  // --save-detailed writes it.
  bool keep_text = false;
  // https: every connection speaks TLS with this context (host is the name checked).
  std::shared_ptr<const TlsContext> tls;
  // Where to connect, tried in order; empty = resolve host:port, or the proxy's (the usual case).
  std::vector<SocketAddress> addresses;
  // A connection whose response was read to its end carries the next request
  // (unless the server said "Connection: close" or spoke HTTP/1.0); a request
  // whose reused connection was closed before any byte of its response is sent
  // again once on a new one. Off: every request opens its own ("Connection: close"),
  // as through a plain-http proxy (some pipe a kept connection to the first server).
  bool keep_alive = true;
  // Through this proxy: http requests in absolute form with its credentials,
  // https through a CONNECT tunnel (host is then the TLS name and the tunnel's target).
  std::optional<ProxyServer> proxy;
};

struct LoadProgress {
  std::uint64_t issued = 0, completed = 0, failed = 0;
  int in_flight = 0;
};

// Called from the load thread: keep them short (start a thread for slow work).
class LoadObserver {
 public:
  virtual ~LoadObserver() = default;
  virtual void on_steady_start(std::int64_t /*mono_ns*/) {}               // first measured request ended
  virtual void on_issue_end(std::int64_t /*mono_ns*/) {}                  // the last request was sent
  virtual void on_tick(std::int64_t /*mono_ns*/, const LoadProgress&) {}  // about every 100 ms
  virtual void on_request_end(std::uint64_t /*index*/) {}                 // request `index` ended, any outcome
};

struct LoadResult {
  std::vector<RequestRecord> records;      // in send order, warm-up included (flagged)
  std::int64_t start_ns = 0;               // monotonic: first request sent
  std::int64_t end_ns = 0;                 // last request ended
  std::int64_t steady_start_ns = 0;        // 0 when never reached
  std::int64_t issue_end_ns = 0;           // 0 when the run timed out before the plan was sent
  std::int64_t realtime_offset_ns = 0;     // realtime = monotonic + offset
  std::uint64_t reads = 0;                 // reads that returned data
  std::uint64_t reads_kernel_stamped = 0;  // ... whose arrival time is the kernel's receive timestamp
  bool keep_alive = false;  // connections were kept (LoadOptions::keep_alive, not through a plain-http proxy)
  std::uint64_t connections_opened = 0;  // TCP connections established (to the server, or the proxy)
  std::uint64_t requests_reused = 0;     // requests sent on a kept-alive connection
  std::uint64_t retries = 0;             // ... of which found it closed and were sent again on a new one
  bool run_timed_out = false;
  bool stopped = false;  // stop_flag was raised
};

// The complete HTTP request (head and body) for one request, and what it asks for.
struct OutgoingRequest {
  OutgoingRequest(std::string b, std::int64_t max_tok = 0, std::int64_t expected_prompt = -1)  // NOLINT: implicit
      : bytes(std::move(b)), max_tokens(max_tok), expected_prompt_tokens(expected_prompt) {}
  std::string bytes;
  std::int64_t max_tokens = 0;               // 0 = unknown
  std::int64_t expected_prompt_tokens = -1;  // -1 = unknown
};

// Builds request number `index`.
using RequestFactory = std::function<OutgoingRequest(std::uint64_t index)>;

// Throws cuprobe::Error when the host cannot be resolved, the plan is empty, or
// the descriptor limit cannot be raised to what `concurrency` needs.
// stop_flag (optional) is polled: when it becomes non-zero nothing new is sent
// and in-flight requests are cancelled with reason "interrupted".
LoadResult run_load(const LoadOptions& options, const RequestFactory& make_request, LoadObserver& observer,
                    const volatile int* stop_flag = nullptr);

}  // namespace cuprobe
