#include "inject/graph_event_timer.h"

#include <algorithm>
#include <cmath>

#include "common/shared_library.h"

namespace cuprobe::inject {
namespace {

constexpr std::size_t kMaxPending = 1u << 16;  // launches waiting for their events: beyond that, count as lost
constexpr auto kAnchorRefresh = std::chrono::seconds(1);

// The launch between its enter and exit callbacks, on this thread.
thread_local GraphEventTimer::Launch t_launch;
thread_local CUstream t_stream = nullptr;
thread_local bool t_launch_open = false;

std::int64_t ms_to_ns(float ms) { return std::llround(static_cast<double>(ms) * 1e6); }

// A CUDA call made by cuprobe while another thread captures a graph in global mode
// would invalidate that capture: cuprobe's own calls run in relaxed mode.
class RelaxedCapture {
 public:
  explicit RelaxedCapture(const DriverEventApi& d) : d_(d) {
    if (d_.exchange_capture_mode) d_.exchange_capture_mode(&mode_);
  }
  ~RelaxedCapture() {
    if (d_.exchange_capture_mode) d_.exchange_capture_mode(&mode_);
  }
  RelaxedCapture(const RelaxedCapture&) = delete;
  RelaxedCapture& operator=(const RelaxedCapture&) = delete;

 private:
  const DriverEventApi& d_;
  CUstreamCaptureMode mode_ = CU_STREAM_CAPTURE_MODE_RELAXED;
};

}  // namespace

std::string DriverEventApi::load() {
  OpenedLibrary lib = open_library({"libcuda.so.1", "libcuda.so"}, RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return "the CUDA driver library is not loaded (" + lib.error + ")";
  std::string missing = resolve_symbols(
      lib,
      {required_symbol("cuEventCreate", event_create), required_symbol("cuEventRecord", event_record),
       required_symbol("cuEventQuery", event_query), required_symbol("cuEventSynchronize", event_synchronize),
       optional_symbol("cuEventElapsedTime_v2", elapsed), required_symbol("cuStreamCreate", stream_create),
       required_symbol("cuStreamIsCapturing", stream_is_capturing), required_symbol("cuCtxSetCurrent", ctx_set_current),
       optional_symbol("cuThreadExchangeStreamCaptureMode", exchange_capture_mode)});
  if (!missing.empty()) return missing;
  if (!elapsed) return resolve_symbols(lib, {required_symbol("cuEventElapsedTime", elapsed)});
  return {};
}

CUevent GraphEventTimer::take_event(CUcontext ctx) {
  {
    std::lock_guard lock(mutex_);
    auto& free = pool_[ctx];
    if (!free.empty()) {
      CUevent e = free.back();
      free.pop_back();
      return e;
    }
  }
  CUevent e = nullptr;
  RelaxedCapture relaxed(driver_);
  if (driver_.event_create(&e, CU_EVENT_DEFAULT) != CUDA_SUCCESS) return nullptr;
  return e;
}

void GraphEventTimer::release(const Launch& l) {
  std::lock_guard lock(mutex_);
  auto& free = pool_[l.ctx];
  if (l.before) free.push_back(l.before);
  if (l.after) free.push_back(l.after);
}

void GraphEventTimer::before_launch(CUcontext ctx, CUgraphExec exec, CUstream stream, bool per_thread_default_stream) {
  t_launch_open = false;
  if (!ctx) return;
  if (!stream && per_thread_default_stream) stream = CU_STREAM_PER_THREAD;
  // A graph launched into a stream being captured becomes a node of the new graph:
  // nothing runs now, and an event recorded there would change the user's graph.
  CUstreamCaptureStatus capturing = CU_STREAM_CAPTURE_STATUS_NONE;
  if (driver_.stream_is_capturing(stream, &capturing) != CUDA_SUCCESS || capturing != CU_STREAM_CAPTURE_STATUS_NONE) {
    return;
  }
  Launch l;
  l.ctx = ctx;
  l.before = take_event(ctx);
  l.after = take_event(ctx);
  if (!l.before || !l.after || driver_.event_record(l.before, stream) != CUDA_SUCCESS) {
    release(l);
    std::lock_guard lock(mutex_);
    ++lost_;
    return;
  }
  std::uint32_t id = 0;
  if (cupti_.stream_id && cupti_.stream_id(ctx, stream, per_thread_default_stream ? 1 : 0, &id) == CUPTI_SUCCESS) {
    l.stream = id;
  }
  if (cupti_.device_id && cupti_.device_id(ctx, &id) == CUPTI_SUCCESS) l.device = static_cast<std::int32_t>(id);
  if (cupti_.graph_exec_id && cupti_.graph_exec_id(exec, &id) == CUPTI_SUCCESS) l.graph_id = id;
  t_launch = l;
  t_stream = stream;
  t_launch_open = true;
}

void GraphEventTimer::after_launch(std::uint32_t correlation, bool launched) {
  if (!t_launch_open) return;
  t_launch_open = false;
  Launch l = t_launch;
  l.correlation = correlation;
  if (!launched || driver_.event_record(l.after, t_stream) != CUDA_SUCCESS) {
    // A failed launch ran nothing; its first event completes on its own and is reused.
    release(l);
    if (launched) {
      std::lock_guard lock(mutex_);
      ++lost_;
    }
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (pending_.size() < kMaxPending) {
      pending_.push_back(l);
      return;
    }
    ++lost_;
  }
  release(l);
}

const GraphEventTimer::Anchor* GraphEventTimer::anchor_for(CUcontext ctx) {
  Anchor& a = anchors_[ctx];
  auto now = std::chrono::steady_clock::now();
  if (a.event && now - a.made < kAnchorRefresh) return &a;
  if (!a.stream && driver_.stream_create(&a.stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) return nullptr;
  if (!a.event && driver_.event_create(&a.event, CU_EVENT_DEFAULT) != CUDA_SUCCESS) return nullptr;
  std::uint64_t t0 = 0, t1 = 0;
  cupti_.get_timestamp(&t0);
  if (driver_.event_record(a.event, a.stream) != CUDA_SUCCESS || driver_.event_synchronize(a.event) != CUDA_SUCCESS) {
    a.made = {};
    return nullptr;
  }
  cupti_.get_timestamp(&t1);
  a.cupti_ns = static_cast<std::int64_t>(t0 + (t1 - t0) / 2);
  anchor_spread_ns_ = std::max(anchor_spread_ns_, static_cast<std::int64_t>(t1 - t0));
  a.made = now;
  return &a;
}

bool GraphEventTimer::emit(const Launch& l, const std::function<void(const wire::GraphLaunch&)>& sink) {
  const Anchor* a = anchor_for(l.ctx);
  float from_anchor = 0, duration = 0;
  if (!a || driver_.elapsed(&from_anchor, a->event, l.before) != CUDA_SUCCESS ||
      driver_.elapsed(&duration, l.before, l.after) != CUDA_SUCCESS) {
    return false;
  }
  wire::GraphLaunch w{};
  w.start = a->cupti_ns + ms_to_ns(from_anchor);
  w.end = w.start + ms_to_ns(duration);
  w.correlation = l.correlation;
  w.graph_id = l.graph_id;
  w.stream = l.stream;
  w.device = l.device;
  sink(w);
  ++timed_;
  return true;
}

void GraphEventTimer::collect(const std::function<void(const wire::GraphLaunch&)>& sink, bool wait) {
  std::deque<Launch> work;
  {
    std::lock_guard lock(mutex_);
    work.swap(pending_);
  }
  RelaxedCapture relaxed(driver_);
  std::size_t done = 0;
  std::uint64_t lost = 0;
  for (; done < work.size(); ++done) {
    const Launch& l = work[done];
    if (driver_.ctx_set_current(l.ctx) != CUDA_SUCCESS) {
      ++lost;  // the context is gone, and its events with it
      continue;
    }
    CUresult r = wait ? driver_.event_synchronize(l.after) : driver_.event_query(l.after);
    if (r == CUDA_ERROR_NOT_READY) break;
    if (r != CUDA_SUCCESS || !emit(l, sink)) ++lost;
    release(l);
  }
  std::lock_guard lock(mutex_);
  lost_ += lost;
  pending_.insert(pending_.begin(), work.begin() + static_cast<std::ptrdiff_t>(done), work.end());
}

std::uint64_t GraphEventTimer::take_lost() {
  std::lock_guard lock(mutex_);
  std::uint64_t n = lost_;
  lost_ = 0;
  return n;
}

}  // namespace cuprobe::inject
