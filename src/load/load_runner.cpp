#include "load/load_runner.h"

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "common/clock.h"
#include "common/error.h"
#include "common/utf8.h"
#include "load/load_loop.h"
#include "net/descriptor_limit.h"
#include "net/http_request.h"
#include "net/proxy_settings.h"

namespace cuprobe {
namespace load_loop {
namespace {

constexpr std::int64_t kScanIntervalNs = 10'000'000;
constexpr std::int64_t kTickIntervalNs = 100'000'000;

}  // namespace

Loop::Loop(const LoadOptions& o, const RequestFactory& f, LoadObserver& obs, const volatile int* stop)
    : opt_(o), make_(f), obs_(obs), stop_flag_(stop) {}

Loop::~Loop() {
  for (Connection* c : active_) {
    if (c->fd >= 0) close(c->fd);
    delete c;
  }
  for (IdleSocket& s : idle_) close(s.fd);
  if (timer_fd_ >= 0) close(timer_fd_);
  if (ep_ >= 0) close(ep_);
}

// Where connections go (the proxy when there is one) and what each request
// carries for its hop; the descriptors the concurrency needs.
void Loop::resolve() {
  origin_ = HttpUrl{opt_.host, opt_.tls != nullptr, opt_.port, ""};
  const HttpUrl& hop = opt_.proxy ? opt_.proxy->url : origin_;
  std::string why;
  addrs_ = opt_.addresses.empty() ? resolve_addresses(hop.host, hop.port, why) : opt_.addresses;
  if (addrs_.empty()) throw Error(opt_.proxy ? why + " (the proxy, from " + opt_.proxy->variable + ")" : why);
  if (opt_.proxy) {
    note_proxy_use(*opt_.proxy, origin_);
    proxy_note_ = " (through the proxy " + opt_.proxy->display() + ")";
    if (!opt_.tls) {  // plain http: the proxy reads the request; its target names the server
      absolute_base_ = origin_.base();
      hop_headers_ = opt_.proxy->header_lines();
    }
  }
  // Not through a plain-http proxy: some (tinyproxy) turn a kept-alive connection into a raw
  // pipe to the first server, which then gets the next request with the proxy's absolute URL.
  result_.keep_alive = opt_.keep_alive && !(opt_.proxy && !opt_.tls);
  if (!result_.keep_alive) hop_headers_ += "Connection: close\r\n";
  std::uint64_t needed = cap() > 0 ? static_cast<std::uint64_t>(cap()) + kDescriptorHeadroom : 0;
  std::string limit = raise_descriptor_limit(needed);
  if (!limit.empty() && needed > 0) {
    throw Error("concurrency " + std::to_string(cap()) + " cannot run: " + limit +
                " (raise it with 'ulimit -n', or lower -c)");
  }
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
  c->out = for_next_hop(std::move(request.bytes), absolute_base_, hop_headers_);
  rec.expected_prompt_tokens = request.expected_prompt_tokens;
  c->response.max_stamps =
      request.max_tokens > 0 ? static_cast<std::size_t>(request.max_tokens) + 16 : opt_.max_token_stamps;
  rec.content_ns.reserve(std::min<std::size_t>(c->response.max_stamps, 64));
  c->response.decoder.keep_text = opt_.keep_text;
  c->slot = active_.size();
  active_.push_back(c);
  ++progress_.in_flight;
  rec.send_ns = mono_ns();
  if (result_.start_ns == 0) result_.start_ns = rec.send_ns;
  c->deadline = rec.send_ns + opt_.request_timeout_ns;
  start(c);
}

void Loop::finish(Connection* c, std::int64_t now) {
  RequestRecord& rec = c->rec;
  if (c->drained_at > 0) now = c->drained_at;  // the response ended at [DONE]; its body's end came later
  rec.end_ns = now;
  if (!c->finished()) c->fail("internal", "request ended without an outcome");
  rec.error = c->response.reason;
  // What a server sent may be any bytes: the report and --save-requests are JSON.
  rec.error_detail = repair_utf8(c->response.detail);
  rec.response_id = repair_utf8(rec.response_id);
  park(c);
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

}  // namespace load_loop

LoadResult run_load(const LoadOptions& options, const RequestFactory& make_request, LoadObserver& observer,
                    const volatile int* stop_flag) {
  auto loop = std::make_unique<load_loop::Loop>(options, make_request, observer, stop_flag);
  return loop->run();
}

}  // namespace cuprobe
