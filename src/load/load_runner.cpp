#include "load/load_runner.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <memory>

#include "common/clock.h"
#include "common/error.h"
#include "common/utf8.h"
#include "net/descriptor_limit.h"
#include "net/http_response_parser.h"
#include "net/socket_address.h"
#include "net/sse_parser.h"
#include "net/tls_session.h"

namespace cuprobe {
namespace {

constexpr std::int64_t kScanIntervalNs = 10'000'000;
constexpr std::int64_t kTickIntervalNs = 100'000'000;

struct Connection final : HttpBodySink, SseSink {
  Connection(RequestRecord& r, ApiKind api, const LoadOptions& o)
      : rec(r),
        http(HttpResponseParser::Limits{o.max_header_bytes, 1024}),
        decoder(api),
        max_error_body(o.max_error_body) {}

  RequestRecord& rec;
  int fd = -1;
  std::size_t slot = 0;                   // position in the active list
  std::size_t address = 0, attempts = 0;  // which resolved address, how many tried
  std::string out;
  std::size_t out_off = 0;
  bool connected = false;
  bool writing = true;   // false after a send error
  bool want_out = true;  // EPOLLOUT is asked for
  std::unique_ptr<TlsSession> tls;
  std::int64_t deadline = 0;
  std::int64_t now = 0;  // arrival time of the bytes being parsed
  HttpResponseParser http;
  SseParser sse;
  StreamDecoder decoder;
  std::size_t max_error_body;
  std::size_t max_stamps = 0;
  bool headers_checked = false;
  bool error_body = false;
  std::string body_excerpt;
  bool saw_done = false;
  bool saw_finish = false;
  bool finished = false;  // outcome decided, connection can go
  std::string reason, detail;

  void fail(std::string why, std::string what) {
    if (finished) return;
    finished = true;
    reason = std::move(why);
    detail = std::move(what);
  }

  void check_headers() {
    if (headers_checked) return;
    headers_checked = true;
    rec.http_status = http.status();
    if (http.status() < 200 || http.status() >= 300) {
      error_body = true;
    } else if (!http.content_type().empty() && http.content_type().find("event-stream") == std::string::npos) {
      error_body = true;
    }
  }

  void on_body(std::string_view data) override {
    check_headers();
    if (finished) return;
    if (error_body) {
      if (body_excerpt.size() < max_error_body) {
        body_excerpt.append(data.substr(0, max_error_body - body_excerpt.size()));
      }
      return;
    }
    if (!sse.feed(data, *this)) fail("malformed_sse", "one event exceeded the size cap");
  }

  void on_event(std::string_view event, std::string_view data) override {
    if (finished) return;
    ++rec.events;
    StreamChunk chunk = decoder.decode(event, data);
    switch (chunk.kind) {
      case StreamChunk::Kind::kDone:
        saw_done = true;
        finished = true;
        return;
      case StreamChunk::Kind::kError:
        fail("stream_error", chunk.message);
        return;
      case StreamChunk::Kind::kMalformed:
        fail("malformed_sse", chunk.message);
        return;
      case StreamChunk::Kind::kData:
        break;
    }
    if (chunk.has_content) {
      ++rec.content_events;
      if (rec.content_ns.size() < max_stamps) rec.content_ns.push_back(now);
    }
    if (chunk.prompt_tokens >= 0) rec.prompt_tokens = chunk.prompt_tokens;
    if (chunk.completion_tokens >= 0) rec.completion_tokens = chunk.completion_tokens;
    if (chunk.finished) saw_finish = true;
    if (rec.response_id.empty() && !chunk.id.empty()) rec.response_id = chunk.id.substr(0, 128);
  }

  // The response ended (body complete or [DONE]): decide success or the reason.
  void conclude_response() {
    if (finished && !saw_done) return;
    check_headers();
    finished = false;
    if (error_body) {
      std::string excerpt;
      for (char c : body_excerpt.substr(0, 300)) excerpt += (static_cast<unsigned char>(c) >= 0x20) ? c : ' ';
      if (http.status() >= 200 && http.status() < 300) {
        fail("not_event_stream",
             "HTTP " + std::to_string(http.status()) + " with Content-Type '" + http.content_type() + "': " + excerpt);
      } else {
        fail("http_" + std::to_string(http.status()), excerpt);
      }
    } else if (!saw_done && !saw_finish) {
      fail("truncated_stream", "the stream ended without [DONE] or a finish_reason");
    } else if (rec.content_events == 0) {
      fail("no_tokens", "the stream ended without any generated text");
    } else {
      finished = true;
    }
  }
};

std::string error_text(int err) { return std::strerror(err); }

class Loop {
 public:
  Loop(const LoadOptions& o, const RequestFactory& f, LoadObserver& obs, const volatile int* stop)
      : opt_(o), make_(f), obs_(obs), stop_flag_(stop) {}

  ~Loop() {
    for (Connection* c : active_) {
      if (c->fd >= 0) close(c->fd);
      delete c;
    }
    if (timer_fd_ >= 0) close(timer_fd_);
    if (ep_ >= 0) close(ep_);
  }

  LoadResult run();

 private:
  bool open_loop() const { return opt_.rate > 0 || opt_.ramp != RampUp::kNone || !opt_.arrival_offsets_ns.empty(); }
  bool next_planned_arrival();
  int cap() const { return open_loop() ? opt_.concurrency : std::max(1, opt_.concurrency); }
  void resolve();
  void plan_arrivals(std::int64_t now);
  void fill_slots(std::int64_t now);
  bool plan_finished(std::int64_t now) const;
  void issue(std::int64_t scheduled);
  bool connect_next(Connection* c, int& err);
  void on_ready(Connection* c, std::uint32_t events);
  void on_readable(Connection* c);
  void end_of_stream(Connection* c, const std::string& why);
  void flush_out(Connection* c);
  std::int64_t arrival_time(msghdr& msg, std::int64_t now);
  void finish(Connection* c, std::int64_t now);
  void cancel_all(const char* reason, const std::string& detail);
  void arm_timer(std::int64_t at);

  const LoadOptions& opt_;
  const RequestFactory& make_;
  LoadObserver& obs_;
  const volatile int* stop_flag_;
  std::unique_ptr<ArrivalSchedule> arrivals_;
  std::size_t replayed_ = 0;  // arrival_offsets_ns used so far
  std::vector<SocketAddress> addrs_;
  std::size_t preferred_ = 0;  // the address the last successful connection used
  int ep_ = -1;
  int timer_fd_ = -1;
  std::deque<RequestRecord> records_;
  std::vector<Connection*> active_;
  std::deque<std::int64_t> pending_;  // open loop: arrivals waiting for a slot
  std::uint64_t planned_ = 0, measured_planned_ = 0;
  std::int64_t run_start_ = 0, measure_start_ = 0, next_arrival_ = 0;
  bool planning_done_ = false;
  LoadProgress progress_;
  LoadResult result_;
  std::string plain_;  // decrypted bytes of the last read (https)
  char buf_[64 * 1024];
};

void Loop::resolve() {
  std::string why;
  addrs_ = opt_.addresses.empty() ? resolve_addresses(opt_.host, opt_.port, why) : opt_.addresses;
  if (addrs_.empty()) throw Error(why);
  std::uint64_t needed = cap() > 0 ? static_cast<std::uint64_t>(cap()) + kDescriptorHeadroom : 0;
  std::string limit = raise_descriptor_limit(needed);
  if (!limit.empty() && needed > 0) {
    throw Error("concurrency " + std::to_string(cap()) + " cannot run: " + limit +
                " (raise it with 'ulimit -n', or lower -c)");
  }
}

// Starts a connection on the next address not tried yet; false with errno's
// value in err when every address failed at once.
bool Loop::connect_next(Connection* c, int& err) {
  while (c->attempts < addrs_.size()) {
    c->address = (preferred_ + c->attempts++) % addrs_.size();
    const SocketAddress& a = addrs_[c->address];
    if (c->fd >= 0) close(c->fd);
    c->fd = socket(a.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) {
      err = errno;
      return false;  // out of descriptors or memory: another address will not help
    }
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(c->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    if (connect(c->fd, a.get(), a.length) < 0 && errno != EINPROGRESS) {
      err = errno;
      continue;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP;
    ev.data.ptr = c;
    if (epoll_ctl(ep_, EPOLL_CTL_ADD, c->fd, &ev) < 0) {
      err = errno;
      return false;
    }
    return true;
  }
  return false;
}

void Loop::arm_timer(std::int64_t at) {
  itimerspec spec{};
  spec.it_value.tv_sec = at / 1'000'000'000;
  spec.it_value.tv_nsec = at % 1'000'000'000;
  if (at <= 0) spec.it_value.tv_nsec = 1;
  timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &spec, nullptr);
}

bool Loop::plan_finished(std::int64_t now) const {
  if (opt_.requests > 0 && measured_planned_ >= opt_.requests) return true;
  if (opt_.duration_ns > 0 && measure_start_ > 0 && now >= measure_start_ + opt_.duration_ns) return true;
  return false;
}

// Decides which requests are due: open loop from the arrival process, closed
// loop whenever a slot is free.
void Loop::plan_arrivals(std::int64_t now) {
  if (planning_done_) return;
  if (!open_loop()) return;
  while (!planning_done_ && next_arrival_ <= now) {
    if (plan_finished(next_arrival_)) {
      planning_done_ = true;
      break;
    }
    pending_.push_back(next_arrival_);
    if (!next_planned_arrival()) planning_done_ = true;
    // Counting happens in issue(); here only what is queued matters for plan_finished.
    ++planned_;
    bool warm =
        planned_ <= opt_.warmup_requests || (opt_.warmup_ns > 0 && pending_.back() - run_start_ < opt_.warmup_ns);
    if (!warm) {
      if (measure_start_ == 0) measure_start_ = pending_.back();
      ++measured_planned_;
    }
  }
  if (!planning_done_) arm_timer(next_arrival_);
}

// Sets next_arrival_ to the next arrival; false when a replayed schedule has none left.
bool Loop::next_planned_arrival() {
  if (opt_.arrival_offsets_ns.empty()) {
    next_arrival_ = run_start_ + arrivals_->next_offset_ns();
    return true;
  }
  if (replayed_ >= opt_.arrival_offsets_ns.size()) return false;
  next_arrival_ = run_start_ + opt_.arrival_offsets_ns[replayed_++];
  return true;
}

void Loop::fill_slots(std::int64_t now) {
  if (open_loop()) {
    while (!pending_.empty() && (cap() <= 0 || progress_.in_flight < cap())) {
      std::int64_t at = pending_.front();
      pending_.pop_front();
      issue(at);
    }
  } else {
    if (!planning_done_ && plan_finished(now)) planning_done_ = true;
    // At most one round of slots per call: when connects fail at once (nothing
    // listening) this paces retries by the loop's 1 ms wake-ups instead of spinning.
    for (int round = 0; !planning_done_ && progress_.in_flight < cap() && round < cap(); ++round) {
      if (plan_finished(now)) {
        planning_done_ = true;
        break;
      }
      ++planned_;
      bool warm = planned_ <= opt_.warmup_requests || (opt_.warmup_ns > 0 && now - run_start_ < opt_.warmup_ns);
      if (!warm) {
        if (measure_start_ == 0) measure_start_ = now;
        ++measured_planned_;
      }
      issue(now);
      now = mono_ns();
    }
  }
  if (planning_done_ && pending_.empty() && result_.issue_end_ns == 0) {
    result_.issue_end_ns = now;
    obs_.on_issue_end(now);
  }
}

void Loop::issue(std::int64_t scheduled) {
  RequestRecord& rec = records_.emplace_back();
  rec.index = progress_.issued++;
  rec.scheduled_ns = scheduled;
  rec.warmup = rec.index < opt_.warmup_requests || (opt_.warmup_ns > 0 && scheduled - run_start_ < opt_.warmup_ns);
  auto* c = new Connection(rec, opt_.api, opt_);
  OutgoingRequest request = make_(rec.index);
  c->out = std::move(request.bytes);
  rec.expected_prompt_tokens = request.expected_prompt_tokens;
  c->max_stamps = request.max_tokens > 0 ? static_cast<std::size_t>(request.max_tokens) + 16 : opt_.max_token_stamps;
  rec.content_ns.reserve(std::min<std::size_t>(c->max_stamps, 64));
  c->slot = active_.size();
  active_.push_back(c);
  ++progress_.in_flight;
  rec.send_ns = mono_ns();
  if (result_.start_ns == 0) result_.start_ns = rec.send_ns;
  c->deadline = rec.send_ns + opt_.request_timeout_ns;
  int err = 0;
  if (!connect_next(c, err)) {
    c->fail(err == ECONNREFUSED ? "connect_refused" : "connect_failed", "connect(): " + error_text(err));
    finish(c, mono_ns());
  }
}

// Arrival time of the bytes just read: the kernel's receive timestamp
// (SO_TIMESTAMPNS, taken when the segment reached this host's network stack)
// mapped onto the monotonic clock, so a client thread that wakes up a little
// late does not stretch TTFT or ITL. Segments that queue up unread are merged
// by the kernel under the newest one's timestamp, so a client starved of CPU
// for longer than a token interval still sees events bunched together.
// Without a timestamp: the time read() returned.
std::int64_t Loop::arrival_time(msghdr& msg, std::int64_t now) {
  ++result_.reads;
  for (cmsghdr* cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
    if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_TIMESTAMPNS) continue;
    timespec ts;
    std::memcpy(&ts, CMSG_DATA(cm), sizeof ts);
    std::int64_t t = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec - result_.realtime_offset_ns;
    // A stamp from the future or from long ago means the clocks moved: keep ours.
    if (t <= now && now - t < 1'000'000'000) {
      ++result_.reads_kernel_stamped;
      return t;
    }
  }
  return now;
}

// The response can end no further: decide with what arrived.
void Loop::end_of_stream(Connection* c, const std::string& why) {
  if (c->http.finish_on_eof()) {
    c->conclude_response();
  } else {
    c->fail(c->http.error(), why.empty() ? c->http.error_detail() : "connection error: " + why);
  }
}

void Loop::on_readable(Connection* c) {
  iovec iov{buf_, sizeof buf_};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec)) + 64];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n = recvmsg(c->fd, &msg, 0);
  std::int64_t now = mono_ns();
  if (n > 0) now = arrival_time(msg, now);
  c->now = now;
  if (n > 0) {
    std::string_view data(buf_, static_cast<std::size_t>(n));
    if (c->tls) {  // the plaintext arrived when its ciphertext did
      plain_.clear();
      if (!c->tls->receive(data, plain_)) {
        c->fail("tls_failed", c->tls->error());
        finish(c, now);
        return;
      }
      c->tls->take_outgoing(c->out);
      flush_out(c);
      data = plain_;
    }
    if (!data.empty() && !c->http.feed(data, *c)) {
      c->fail(c->http.error(), c->http.error_detail());
    } else if (c->saw_done || c->http.done()) {
      c->conclude_response();
    } else if (c->tls && c->tls->closed()) {
      end_of_stream(c, "");
    }
    if (c->finished) finish(c, now);
    return;
  }
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  end_of_stream(c, n == 0 ? "" : error_text(errno));
  finish(c, now);
}

// Sends what is queued in c->out; keeps EPOLLOUT asked for exactly while
// something is left.
void Loop::flush_out(Connection* c) {
  while (c->writing && c->out_off < c->out.size()) {
    ssize_t n = send(c->fd, c->out.data() + c->out_off, c->out.size() - c->out_off, MSG_NOSIGNAL);
    if (n > 0) {
      c->out_off += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EAGAIN) {
      break;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      c->writing = false;  // the server may already have answered (e.g. 413): read what it said
    }
  }
  bool left = c->writing && c->out_off < c->out.size();
  if (!left) {
    std::string().swap(c->out);
    c->out_off = 0;
  }
  if (left != c->want_out) {
    c->want_out = left;
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | (left ? EPOLLOUT : 0u);
    ev.data.ptr = c;
    epoll_ctl(ep_, EPOLL_CTL_MOD, c->fd, &ev);
  }
}

void Loop::on_ready(Connection* c, std::uint32_t events) {
  if (!c->connected) {
    if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) {
      int err = 0;
      socklen_t len = sizeof err;
      getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
      if (err != 0) {
        if (connect_next(c, err)) return;  // the next address is being tried
        c->fail(err == ECONNREFUSED ? "connect_refused" : "connect_failed", "connect(): " + error_text(err));
        finish(c, mono_ns());
        return;
      }
      c->connected = true;
      preferred_ = c->address;
      if (opt_.tls) {  // the request goes out encrypted, after the handshake
        c->tls = std::make_unique<TlsSession>(opt_.tls, opt_.host);
        c->tls->write(c->out);
        c->out.clear();
        c->tls->take_outgoing(c->out);
        if (c->tls->failed()) {
          c->fail("tls_failed", c->tls->error());
          finish(c, mono_ns());
          return;
        }
      }
    } else {
      return;
    }
  }
  if (events & EPOLLOUT) flush_out(c);
  if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) on_readable(c);
}

void Loop::finish(Connection* c, std::int64_t now) {
  RequestRecord& rec = c->rec;
  rec.end_ns = now;
  if (!c->finished) c->fail("internal", "request ended without an outcome");
  rec.error = c->reason;
  // What a server sent may be any bytes: the report and --save-requests are JSON.
  rec.error_detail = repair_utf8(c->detail);
  rec.response_id = repair_utf8(rec.response_id);
  if (c->fd >= 0) close(c->fd);
  Connection* last = active_.back();
  active_[c->slot] = last;
  last->slot = c->slot;
  active_.pop_back();
  delete c;
  --progress_.in_flight;
  ++(rec.ok() ? progress_.completed : progress_.failed);
  obs_.on_request_end(rec.index);
  if (!rec.warmup && result_.steady_start_ns == 0) {
    result_.steady_start_ns = now;
    obs_.on_steady_start(now);
  }
  result_.end_ns = std::max(result_.end_ns, now);
}

void Loop::cancel_all(const char* reason, const std::string& detail) {
  std::int64_t now = mono_ns();
  while (!active_.empty()) {
    Connection* c = active_.back();
    c->fail(reason, detail);
    finish(c, now);
  }
  pending_.clear();
}

LoadResult Loop::run() {
  if (opt_.requests == 0 && opt_.duration_ns <= 0)
    throw Error("the load plan has neither a request count nor a duration", kExitUsage);
  resolve();
  ep_ = epoll_create1(EPOLL_CLOEXEC);
  timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (ep_ < 0 || timer_fd_ < 0) throw Error("epoll/timerfd: " + error_text(errno));
  epoll_event tev{};
  tev.events = EPOLLIN;
  tev.data.ptr = nullptr;
  epoll_ctl(ep_, EPOLL_CTL_ADD, timer_fd_, &tev);

  result_.realtime_offset_ns = monotonic_to_realtime_offset();
  run_start_ = mono_ns();
  if (!opt_.arrival_offsets_ns.empty()) {
    next_planned_arrival();
  } else if (open_loop()) {
    ArrivalPlan plan;
    plan.rate = opt_.rate;
    plan.burstiness = opt_.arrival == Arrival::kConstant ? kConstantArrivals : opt_.burstiness;
    plan.ramp = opt_.ramp;
    plan.ramp_start_rps = opt_.ramp_start_rps;
    plan.ramp_end_rps = opt_.ramp_end_rps;
    // Known only when nothing but counts bounds the plan (vLLM's case): then the times are rescaled.
    plan.total = opt_.duration_ns == 0 && opt_.warmup_ns == 0 ? opt_.requests + opt_.warmup_requests : 0;
    plan.seed = opt_.seed;
    std::string why = check_arrival_plan(plan);
    if (!why.empty()) throw Error(why, kExitUsage);
    arrivals_ = std::make_unique<ArrivalSchedule>(plan);
    next_planned_arrival();
  }
  std::int64_t run_deadline = run_start_ + opt_.run_timeout_ns;
  std::int64_t next_scan = run_start_ + kScanIntervalNs;
  std::int64_t next_tick = run_start_ + kTickIntervalNs;
  plan_arrivals(run_start_);
  fill_slots(run_start_);

  epoll_event events[256];
  while (!(planning_done_ && pending_.empty() && active_.empty())) {
    std::int64_t now = mono_ns();
    std::int64_t wake = std::min(next_tick, run_deadline);
    if (!active_.empty()) wake = std::min(wake, next_scan);
    // Closed loop with free slots: requests failed at once (nothing listening); retry in 1 ms.
    if (!open_loop() && !planning_done_ && progress_.in_flight < cap()) wake = std::min(wake, now + 1'000'000);
    if (!planning_done_ && opt_.duration_ns > 0 && measure_start_ > 0) {
      wake = std::min(wake, measure_start_ + opt_.duration_ns);
    }
    int timeout_ms = static_cast<int>(std::clamp<std::int64_t>((wake - now + 999'999) / 1'000'000, 0, 1000));
    int n = epoll_wait(ep_, events, 256, timeout_ms);
    if (n < 0 && errno != EINTR) throw Error("epoll_wait: " + error_text(errno));
    for (int i = 0; i < n; ++i) {
      if (events[i].data.ptr == nullptr) {
        std::uint64_t expirations;
        [[maybe_unused]] ssize_t r = read(timer_fd_, &expirations, sizeof expirations);
        continue;
      }
      on_ready(static_cast<Connection*>(events[i].data.ptr), events[i].events);
    }
    now = mono_ns();
    if (stop_flag_ && *stop_flag_) {
      result_.stopped = true;
      planning_done_ = true;
      cancel_all("interrupted", "the run was interrupted");
      break;
    }
    if (now >= run_deadline) {
      result_.run_timed_out = true;
      planning_done_ = true;
      cancel_all("run_timeout", "the whole run exceeded --timeout");
      break;
    }
    if (now >= next_scan) {
      next_scan = now + kScanIntervalNs;
      for (std::size_t i = 0; i < active_.size();) {
        Connection* c = active_[i];
        if (now >= c->deadline) {
          c->fail("timeout", "no complete response within --request-timeout");
          finish(c, now);  // moves another connection into slot i
        } else {
          ++i;
        }
      }
    }
    plan_arrivals(now);
    fill_slots(now);
    if (now >= next_tick) {
      next_tick = now + kTickIntervalNs;
      obs_.on_tick(now, progress_);
    }
  }
  result_.records.assign(std::make_move_iterator(records_.begin()), std::make_move_iterator(records_.end()));
  if (result_.end_ns == 0) result_.end_ns = mono_ns();
  return std::move(result_);
}

}  // namespace

LoadResult run_load(const LoadOptions& options, const RequestFactory& make_request, LoadObserver& observer,
                    const volatile int* stop_flag) {
  auto loop = std::make_unique<Loop>(options, make_request, observer, stop_flag);
  return loop->run();
}

}  // namespace cuprobe
