// The insides of run_load (load/load_runner.h), shared by its two files:
// load_runner.cpp plans and paces the requests, load_connection.cpp moves their
// bytes (connect, the proxy's tunnel, TLS, keep-alive reuse and its one retry).
// Not for use outside them.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "load/load_runner.h"
#include "load/stream_response.h"
#include "net/proxy_tunnel.h"
#include "net/socket_address.h"
#include "net/tls_session.h"

namespace cuprobe::load_loop {

// One idle keep-alive connection, parked between two requests (not in epoll).
struct IdleSocket {
  int fd = -1;
  std::unique_ptr<TlsSession> tls;
  std::size_t address = 0;
};

// One request in flight and the connection that carries it: a fresh one
// (through the proxy's tunnel when there is one) or an idle one reused.
struct Connection {
  Connection(RequestRecord& r, ApiKind api, const LoadOptions& o)
      : rec(r), response(r, api, o.max_header_bytes, o.max_error_body) {}

  RequestRecord& rec;
  int fd = -1;
  std::size_t slot = 0;                   // position in the active list
  std::size_t address = 0, attempts = 0;  // which resolved address, how many tried
  std::string out;                        // bytes for the socket (ciphertext with TLS)
  std::size_t out_off = 0;
  bool connected = false;
  bool writing = true;   // false after a send error
  bool want_out = true;  // EPOLLOUT is asked for
  std::unique_ptr<TlsSession> tls;
  std::unique_ptr<ConnectReply> tunnel;  // waiting for the proxy's answer to CONNECT
  std::string request;                   // the request's bytes, kept while they may be sent again
  bool reused = false;                   // on an idle connection: sent again once if that one was closed
  bool request_sent = false;             // every byte of the request went out: never sent again (RFC 9110 9.2.2)
  bool response_started = false;         // a byte of the response arrived
  std::int64_t deadline = 0;
  std::int64_t drained_at = 0;  // > 0: the outcome was decided then; the body's end is still being read
  StreamResponse response;

  bool finished() const { return response.finished; }
  void fail(std::string why, std::string what) { response.fail(std::move(why), std::move(what)); }
};

std::string error_text(int err);

class Loop {
 public:
  Loop(const LoadOptions& o, const RequestFactory& f, LoadObserver& obs, const volatile int* stop);
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  LoadResult run();

 private:
  // load_runner.cpp: the plan.
  bool open_loop() const { return opt_.rate > 0 || opt_.ramp != RampUp::kNone || !opt_.arrival_offsets_ns.empty(); }
  bool next_planned_arrival();
  int cap() const { return open_loop() ? opt_.concurrency : std::max(1, opt_.concurrency); }
  void resolve();
  void plan_arrivals(std::int64_t now);
  void fill_slots(std::int64_t now);
  bool plan_finished(std::int64_t now) const;
  void issue(std::int64_t scheduled);
  void finish(Connection* c, std::int64_t now);
  void cancel_all(const char* reason, const std::string& detail);
  void arm_timer(std::int64_t at);

  // load_connection.cpp: the bytes.
  void start(Connection* c);
  bool connect_next(Connection* c, int& err);
  bool take_idle(Connection* c);
  void park(Connection* c);
  bool retry_on_fresh_connection(Connection* c);
  bool on_connected(Connection* c);
  bool send_request(Connection* c);
  void on_tunnel_reply(Connection* c, std::string_view data, std::int64_t now);
  void on_ready(Connection* c, std::uint32_t events);
  void on_readable(Connection* c);
  void on_response_bytes(Connection* c, std::string_view data, std::int64_t now);
  void end_of_stream(Connection* c, const std::string& why, std::int64_t now);
  void flush_out(Connection* c);
  void watch(Connection* c, int op, bool want_out);
  std::int64_t arrival_time(msghdr& msg, std::int64_t now);

  const LoadOptions& opt_;
  const RequestFactory& make_;
  LoadObserver& obs_;
  const volatile int* stop_flag_;
  std::unique_ptr<ArrivalSchedule> arrivals_;
  std::size_t replayed_ = 0;  // arrival_offsets_ns used so far
  std::vector<SocketAddress> addrs_;
  std::size_t preferred_ = 0;  // the address the last successful connection used
  HttpUrl origin_;             // the server (the CONNECT target through a proxy)
  std::string absolute_base_;  // "http://host:port" when requests go through a plain-http proxy
  std::string hop_headers_;    // Proxy-Authorization (plain-http proxy), Connection: close (no keep-alive)
  std::string proxy_note_;     // " (through the proxy http://host:port)" for connect errors, or ""
  int ep_ = -1;
  int timer_fd_ = -1;
  std::deque<RequestRecord> records_;
  std::vector<Connection*> active_;
  std::vector<IdleSocket> idle_;      // keep-alive: the last parked is the first reused
  std::deque<std::int64_t> pending_;  // open loop: arrivals waiting for a slot
  std::uint64_t planned_ = 0, measured_planned_ = 0;
  std::int64_t run_start_ = 0, measure_start_ = 0, next_arrival_ = 0;
  bool planning_done_ = false;
  LoadProgress progress_;
  LoadResult result_;
  std::string plain_;  // decrypted bytes of the last read (https)
  char buf_[64 * 1024];
};

}  // namespace cuprobe::load_loop
