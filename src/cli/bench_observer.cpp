#include "cli/bench_observer.h"

#include <string>

#include "common/say.h"

namespace cuprobe {

void BenchObserver::on_request_end(std::uint64_t index) {
  if (workload_) workload_->ended(index);
}

void BenchObserver::on_steady_start(std::int64_t) {
  if (metrics_ && !sent_all_) metrics_->request_start();
  // Everything was sent before the first request ended: no steady state to profile.
  if (profiler_ && sent_all_)
    profiler_->skip("no steady state: every request was sent before the first one ended");
  else if (profiler_)
    profiler_->request_start();
  if (!quiet_) say("bench", "steady state reached (first measured request ended)");
}

void BenchObserver::on_issue_end(std::int64_t) {
  sent_all_ = true;
  if (profiler_) profiler_->request_stop();
  if (metrics_) metrics_->request_end();
  if (!quiet_) say("bench", "all requests sent, draining");
}

void BenchObserver::on_tick(std::int64_t now, const LoadProgress& p) {
  if (quiet_) return;
  if (last_ == 0) last_ = now;
  if (now - last_ < 5'000'000'000) return;
  last_ = now;
  std::string of = planned_ ? "/" + std::to_string(planned_) : "";
  say("bench", "%llu%s sent, %llu done, %llu failed, %d in flight", static_cast<unsigned long long>(p.issued),
      of.c_str(), static_cast<unsigned long long>(p.completed), static_cast<unsigned long long>(p.failed), p.in_flight);
}

}  // namespace cuprobe
