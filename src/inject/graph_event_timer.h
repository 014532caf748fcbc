// `record --graphs events`: each CUDA graph launch is timed by two CUDA events
// that the cuGraphLaunch callback records on the launching stream, just before
// and just after the launch: the launch as the stream sees it, as the program's
// own cudaEventElapsedTime around the launch would (CUPTI's graph tracing spans
// first node start to last node end, ~5% less on the H200 decode loop).
// Nothing else goes onto the target's streams.
//
// Events give durations, not times on CUPTI's clock. Each context keeps an
// anchor: an event recorded on cuprobe's own idle stream between two CUPTI
// timestamps, refreshed every second; a launch starts at the anchor's time plus
// the elapsed time from the anchor to the launch's first event. Durations are
// as exact as the events (~0.5 us); placement on the kernel clock is within
// half the anchor's bracket (anchor_spread_ns()).
#pragma once

#include <cupti.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "inject/cupti_api.h"
#include "wire/record_wire.h"

namespace cuprobe::inject {

// The driver functions the timer calls, resolved from the libcuda the process holds.
struct DriverEventApi {
  decltype(&::cuEventCreate) event_create = nullptr;
  decltype(&::cuEventRecord) event_record = nullptr;
  decltype(&::cuEventQuery) event_query = nullptr;
  decltype(&::cuEventSynchronize) event_synchronize = nullptr;
  decltype(&::cuEventElapsedTime) elapsed = nullptr;
  decltype(&::cuStreamCreate) stream_create = nullptr;
  decltype(&::cuStreamIsCapturing) stream_is_capturing = nullptr;
  decltype(&::cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&::cuThreadExchangeStreamCaptureMode) exchange_capture_mode = nullptr;

  std::string load();  // "" on success, else what is missing
};

class GraphEventTimer {
 public:
  // One launch between its two callbacks (thread-local) and until its events complete.
  struct Launch {
    CUcontext ctx = nullptr;
    CUevent before = nullptr, after = nullptr;
    std::int64_t stream = 0, graph_id = 0;
    std::int32_t device = 0;
    std::uint32_t correlation = 0;
  };

  explicit GraphEventTimer(const CuptiApi& cupti) : cupti_(cupti) {}

  std::string load() { return driver_.load(); }

  // On the launching thread, from the cuGraphLaunch enter / exit callbacks.
  void before_launch(CUcontext ctx, CUgraphExec exec, CUstream stream, bool per_thread_default_stream);
  void after_launch(std::uint32_t correlation, bool launched);

  // On the worker thread: hands `sink` every launch whose second event has
  // completed, oldest first (with `wait`, waits for all of them).
  void collect(const std::function<void(const wire::GraphLaunch&)>& sink, bool wait);

  std::uint64_t take_lost();  // launches that could not be timed since the last call
  std::int64_t anchor_spread_ns() const { return anchor_spread_ns_; }
  std::uint64_t timed() const { return timed_; }

 private:
  struct Anchor {
    CUstream stream = nullptr;
    CUevent event = nullptr;
    std::int64_t cupti_ns = 0;
    std::chrono::steady_clock::time_point made{};
  };

  CUevent take_event(CUcontext ctx);  // from the context's pool, else a new one
  void release(const Launch& l);
  const Anchor* anchor_for(CUcontext ctx);
  bool emit(const Launch& l, const std::function<void(const wire::GraphLaunch&)>& sink);

  const CuptiApi& cupti_;
  DriverEventApi driver_;
  std::mutex mutex_;  // guards pool_, pending_, lost_
  std::unordered_map<CUcontext, std::vector<CUevent>> pool_;
  std::deque<Launch> pending_;
  std::uint64_t lost_ = 0;
  std::unordered_map<CUcontext, Anchor> anchors_;  // worker only
  std::int64_t anchor_spread_ns_ = 0;              // worker only: the widest anchor bracket seen
  std::uint64_t timed_ = 0;                        // worker only
};

}  // namespace cuprobe::inject
