// What bench does when the load runner reaches a milestone: the server's
// profiler and /metrics scrapes start at the steady state and stop when the
// last request is sent; multi-turn sessions hear when a request ends; and a
// progress line every 5 s (unless quiet).
#pragma once

#include <cstdint>

#include "load/load_runner.h"
#include "load/profiler_control.h"
#include "load/server_metrics.h"
#include "load/workload.h"

namespace cuprobe {

class BenchObserver final : public LoadObserver {
 public:
  // Any pointer may be null (not asked for); `planned`: requests to send, 0 when unknown.
  BenchObserver(ProfilerControl* profiler, ServerMetricsScraper* metrics, bool quiet, std::uint64_t planned,
                Workload* workload)
      : profiler_(profiler), metrics_(metrics), quiet_(quiet), planned_(planned), workload_(workload) {}
  void on_request_end(std::uint64_t index) override;
  void on_steady_start(std::int64_t) override;
  void on_issue_end(std::int64_t) override;
  void on_tick(std::int64_t now, const LoadProgress& p) override;

 private:
  ProfilerControl* profiler_;
  ServerMetricsScraper* metrics_;
  bool quiet_;
  std::uint64_t planned_;
  Workload* workload_;
  std::int64_t last_ = 0;
  bool sent_all_ = false;
};

}  // namespace cuprobe
