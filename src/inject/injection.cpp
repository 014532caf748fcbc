// libcuprobe_inject.so: loaded into every CUDA process of a `cuprobe record`
// run through CUDA_INJECTION64_PATH. CUDA calls InitializeInjection() at
// cuInit. From then on CUPTI hands completed activity buffers to
// buffer_completed(), which only queues them; a worker thread encodes them
// (activity_encoder.h) and streams them to the parent over the socket named in
// CUPROBE_RECORD_SOCKET.
//
// Rules (docs/architecture.md, Conventions): never throw across a CUPTI callback, never exit or abort
// the host process, never block a CUDA thread on the parent. When anything
// fails, recording stops and the program goes on.
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "common/clock.h"
#include "common/shared_library.h"
#include "inject/activity_buffer_pool.h"
#include "inject/activity_encoder.h"
#include "inject/cupti_api.h"
#include "inject/graph_event_timer.h"
#include "inject/inject_knobs.h"
#include "inject/worker_placement.h"
#include "wire/capture_window.h"
#include "wire/record_wire.h"

namespace cuprobe::inject {
namespace {

constexpr std::size_t kMaxQueuedBuffers = 64;  // 512 MiB waiting for the worker: beyond that, drop
constexpr std::size_t kPooledBuffers = 16;     // kept for reuse (activity_buffer_pool.h)
constexpr std::size_t kPrefilledBuffers = 2;   // touched by the worker before CUPTI asks

struct Completed {
  std::uint8_t* buffer;
  std::size_t valid;
};

class Recorder {
 public:
  bool start();
  void stop_at_exit();
  CUptiResult on_foreign_subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* user_data,
                                   const std::string& caller);

  void buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records);
  void buffer_completed(CUcontext ctx, std::uint32_t stream, std::uint8_t* buffer, std::size_t valid);
  void on_profiler_api(bool start);
  void on_cupti_state(CUpti_CallbackId id, CUptiResult result, const char* message);
  void on_context_created() {
    if (!timing_chosen_.exchange(true)) choose_kernel_timing();
  }
  void on_graph_launch(const CUpti_CallbackData* info, bool per_thread_default_stream);

 private:
  bool connect_parent(const char* path);
  void send_now(const std::string& bytes);  // worker thread (or init/exit, when no worker runs)
  void notice(wire::NoticeCode code, const std::string& text);
  void set_collecting(bool on, std::uint32_t reason);
  void choose_kernel_timing();
  bool start_graph_events(CUpti_SubscriberHandle subscriber, CUptiResult subscribed);
  void collect_graph_launches(std::string& out, bool wait);
  void tell_rank();
  void worker_loop();
  void read_controls();
  void send_clock_sync(std::string& out);
  bool give_up(wire::NoticeCode code, const std::string& text);  // says why, says goodbye, closes
  void yield_cupti(const std::string& caller);
  CUptiResult subscribe(CUpti_SubscriberHandle* subscriber, bool needed);
  bool register_buffers();
  void enable_graph_and_device_records();
  void release_buffer(std::uint8_t* buffer);
  void start_worker();

  InjectKnobs knobs_;                         // CUPROBE_INJECT_*: cost measurement (inject_knobs.h)
  std::unique_ptr<ActivityBufferPool> pool_;  // BufferMode::kPool

  CuptiApi api_;
  int fd_ = -1;
  pid_t pid_ = 0;
  bool api_calls_ = false;
  bool whole_graphs_ = false;  // CUPTI's graph tracing (--graphs whole, or events' fallback)
  // --graphs events: graph launches timed by CUDA events at the launch callback.
  std::unique_ptr<GraphEventTimer> graph_timer_;
  std::FILE* graph_events_log_ = nullptr;  // CUPROBE_RECORD_GRAPH_EVENTS_LOG: validation beside CUPTI's tracing
  std::atomic<bool> timing_chosen_{false};
  bool profiler_api_controls_ = false;  // --capture cuda-profiler
  std::atomic<bool> collecting_{false};
  CUpti_SubscriberHandle subscriber_ = nullptr;
  bool keep_cupti_ = false;           // --keep-cupti
  std::atomic<bool> yielded_{false};  // CUPTI handed to another tool in the process: nothing more to record
  std::mutex yield_mutex_;
  std::uint32_t wanted_kinds_ = 0;  // bit per ActivityKind, from CUPROBE_RECORD_KINDS
  bool kind_wanted(ActivityKind kind) const { return wanted_kinds_ & (1u << static_cast<unsigned>(kind)); }
  // --graphs whole: GRAPH_TRACE stays enabled from the start (enabling it once a graph
  // exists crashed the target in CUPTI 13.0 on the H200), and its records are kept only
  // when they start while collection is on. Guarded by mutex_.
  CaptureWindow graph_window_{false};
  std::atomic<bool> parent_gone_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Completed> queue_;
  bool stopping_ = false;
  std::uint64_t queue_drops_ = 0;
  std::uint64_t cupti_drops_ = 0;
  std::thread worker_;
  std::unique_ptr<ActivityEncoder> encoder_;
  std::string pending_;  // frames made outside the worker, sent by it
  std::string control_in_;
  int flush_ms_ = 200;
};

Recorder* g_recorder = nullptr;

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!s.empty() && s.back() == '\0') s.pop_back();
  for (char& c : s) {
    if (c == '\0') c = ' ';
  }
  if (s.size() > 4096) s.resize(4096);
  return s;
}

bool Recorder::connect_parent(const char* path) {
  fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof addr.sun_path) return false;
  std::strcpy(addr.sun_path, path);
  if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd_);
    fd_ = -1;
    return false;
  }
  return true;
}

void Recorder::send_now(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size() && !parent_gone_) {
    ssize_t n = send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      parent_gone_ = true;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
}

void Recorder::notice(wire::NoticeCode code, const std::string& text) {
  std::string frame;
  wire::append_frame(frame, wire::Type::kNotice, wire::Notice{static_cast<std::uint32_t>(code), 0}, text);
  std::lock_guard lock(mutex_);
  pending_ += frame;
}

bool Recorder::give_up(wire::NoticeCode code, const std::string& text) {
  std::string frames;
  {
    std::lock_guard lock(mutex_);
    frames.swap(pending_);
  }
  wire::append_frame(frames, wire::Type::kNotice, wire::Notice{static_cast<std::uint32_t>(code), 0}, text);
  wire::append_frame(frames, wire::Type::kGoodbye, wire::Goodbye{realtime_ns(), 0});
  send_now(frames);
  close(fd_);
  fd_ = -1;
  return false;
}

void Recorder::send_clock_sync(std::string& out) {
  std::uint64_t cupti = 0;
  std::int64_t before = realtime_ns();
  api_.get_timestamp(&cupti);
  std::int64_t after = realtime_ns();
  wire::append_frame(out, wire::Type::kClockSync,
                     wire::ClockSync{before + (after - before) / 2, static_cast<std::int64_t>(cupti)});
}

CUpti_ActivityKind cupti_kind(ActivityKind kind) {
  switch (kind) {
    case ActivityKind::kKernel:
      return CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    case ActivityKind::kMemcpy:
      return CUPTI_ACTIVITY_KIND_MEMCPY;
    case ActivityKind::kMemset:
      return CUPTI_ACTIVITY_KIND_MEMSET;
    case ActivityKind::kNvtx:
      return CUPTI_ACTIVITY_KIND_MARKER;
  }
  return CUPTI_ACTIVITY_KIND_INVALID;
}

// Whether `kind` is in the comma-separated list `env` (CUPROBE_RECORD_KINDS; all when unset).
bool kind_in_list(ActivityKind kind, const char* env) {
  if (!env || !*env) return true;
  std::string list = std::string(",") + env + ",";
  return list.find("," + std::string(name_of(kind)) + ",") != std::string::npos;
}

void Recorder::set_collecting(bool on, std::uint32_t reason) {
  if (on && yielded_) return;
  if (collecting_.exchange(on) == on) return;
  for (std::size_t i = 0; i < enum_count<ActivityKind>(); ++i) {
    if (!kind_wanted(enum_at<ActivityKind>(i))) continue;
    CUpti_ActivityKind kind = cupti_kind(enum_at<ActivityKind>(i));
    CUptiResult r = on ? api_.enable(kind) : api_.disable(kind);
    if (r != CUPTI_SUCCESS && on) {
      notice(wire::NoticeCode::kCuptiError,
             std::string("cuptiActivityEnable(") + std::to_string(kind) + "): " + api_.result_string(r));
    }
  }
  if (api_calls_) on ? api_.enable(CUPTI_ACTIVITY_KIND_RUNTIME) : api_.disable(CUPTI_ACTIVITY_KIND_RUNTIME);
  std::uint64_t cupti_now = 0;
  if (whole_graphs_) api_.get_timestamp(&cupti_now);
  std::string frame;
  wire::append_frame(frame, wire::Type::kCapture, wire::Capture{realtime_ns(), on ? 1u : 0u, reason});
  std::lock_guard lock(mutex_);
  pending_ += frame;
  if (whole_graphs_) {
    on ? graph_window_.open(static_cast<std::int64_t>(cupti_now))
       : graph_window_.close(static_cast<std::int64_t>(cupti_now));
  }
  wake_.notify_one();
}

void Recorder::on_graph_launch(const CUpti_CallbackData* info, bool per_thread_default_stream) {
  if (!graph_timer_) return;
  if (info->callbackSite == CUPTI_API_ENTER) {
    if (!collecting_) return;
    const auto* params = static_cast<const cuGraphLaunch_params*>(info->functionParams);
    graph_timer_->before_launch(info->context, params->hGraph, params->hStream, per_thread_default_stream);
    return;
  }
  const auto* result = static_cast<const CUresult*>(info->functionReturnValue);
  graph_timer_->after_launch(info->correlationId, result && *result == CUDA_SUCCESS);
}

void Recorder::collect_graph_launches(std::string& out, bool wait) {
  if (!graph_timer_) return;
  graph_timer_->collect(
      [&](const wire::GraphLaunch& g) {
        if (graph_events_log_) {
          std::fprintf(graph_events_log_, "%lld,%lld,%lld\n", static_cast<long long>(g.correlation),
                       static_cast<long long>(g.start), static_cast<long long>(g.end));
        } else {
          wire::append_frame(out, wire::Type::kGraphLaunch, g);
        }
      },
      wait);
  if (std::uint64_t lost = graph_timer_->take_lost()) {
    wire::append_frame(out, wire::Type::kLoss,
                       wire::Loss{lost, static_cast<std::uint32_t>(wire::LossReason::kGraphUntimed), 0});
  }
}

// --graphs events needs the launch callbacks and the driver's event functions;
// without them CUPTI's graph tracing stands in, and the run file says so.
bool Recorder::start_graph_events(CUpti_SubscriberHandle subscriber, CUptiResult subscribed) {
  auto timer = std::make_unique<GraphEventTimer>(api_);
  std::string why = subscribed != CUPTI_SUCCESS
                        ? std::string("no CUPTI callbacks (cuptiSubscribe: ") + api_.result_string(subscribed) + ")"
                        : timer->load();
  for (auto cbid : {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz}) {
    if (!why.empty()) break;
    CUptiResult r = api_.enable_callback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
    if (r != CUPTI_SUCCESS) why = std::string("cuptiEnableCallback(cuGraphLaunch): ") + api_.result_string(r);
  }
  if (!why.empty()) {
    notice(wire::NoticeCode::kGraphTiming, "cupti: " + why);
    return false;
  }
  graph_timer_ = std::move(timer);
  notice(wire::NoticeCode::kGraphTiming, "events");
  if (const char* log = std::getenv("CUPROBE_RECORD_GRAPH_EVENTS_LOG"); log && *log) {
    graph_events_log_ = std::fopen(log, "w");  // validation: events to this file, CUPTI's graph tracing as well
  }
  return true;
}

void CUPTIAPI on_buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = nullptr;
  *size = 0;
  *max_records = 0;
  if (!g_recorder) return;
  try {
    g_recorder->buffer_requested(buffer, size, max_records);
  } catch (...) {
    *buffer = nullptr;
    *size = 0;
  }
}

void CUPTIAPI on_buffer_completed(CUcontext ctx, std::uint32_t stream, std::uint8_t* buffer, std::size_t,
                                  std::size_t valid) {
  if (!g_recorder) {
    std::free(buffer);
    return;
  }
  try {
    g_recorder->buffer_completed(ctx, stream, buffer, valid);
  } catch (...) {
    std::free(buffer);
  }
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  try {
    if (!g_recorder) return;
    if (domain == CUPTI_CB_DOMAIN_STATE) {
      // CUPTI's own warnings and errors (e.g. another tool asking for CUPTI): pass them on.
      const auto* state = static_cast<const CUpti_StateData*>(data);
      const char* message = state && state->notification.message ? state->notification.message : "";
      g_recorder->on_cupti_state(id, state ? state->notification.result : CUPTI_SUCCESS, message);
      return;
    }
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
      g_recorder->on_context_created();
      return;
    }
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) {
      g_recorder->on_graph_launch(info, id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz);
      return;
    }
    if (id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart && info->callbackSite == CUPTI_API_EXIT) {
      g_recorder->on_profiler_api(true);
    } else if (id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop && info->callbackSite == CUPTI_API_ENTER) {
      g_recorder->on_profiler_api(false);
    }
  } catch (...) {
  }
}

void Recorder::on_profiler_api(bool start) {
  // Without --capture cuda-profiler the target's cudaProfilerStart/Stop (vLLM and SGLang
  // emit them around their own profiling) must not switch cuprobe's recording.
  if (profiler_api_controls_) set_collecting(start, 1);
}

void Recorder::on_cupti_state(CUpti_CallbackId id, CUptiResult result, const char* message) {
  const char* level = id == CUPTI_CBID_STATE_FATAL_ERROR ? "fatal error"
                      : id == CUPTI_CBID_STATE_ERROR     ? "error"
                                                         : "warning";
  notice(id == CUPTI_CBID_STATE_WARNING ? wire::NoticeCode::kInfo : wire::NoticeCode::kCuptiError,
         std::string("CUPTI ") + level + " (" + api_.result_string(result) + "): " + message);
}

void Recorder::buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  if (pool_) {
    *buffer = pool_->take();
    *size = *buffer ? pool_->buffer_bytes() : 0;
  } else {
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, knobs_.buffer_bytes));
    *size = *buffer ? knobs_.buffer_bytes : 0;
  }
  *max_records = 0;
}

void Recorder::release_buffer(std::uint8_t* buffer) {
  if (pool_) {
    pool_->give_back(buffer);
  } else {
    std::free(buffer);
  }
}

void Recorder::buffer_completed(CUcontext ctx, std::uint32_t stream, std::uint8_t* buffer, std::size_t valid) {
  std::size_t dropped = 0;
  if (api_.dropped_records(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped > 0) {
    std::lock_guard lock(mutex_);
    cupti_drops_ += dropped;
  }
  if (!buffer) return;
  std::unique_lock lock(mutex_);
  if (valid == 0 || parent_gone_) {
    lock.unlock();
    release_buffer(buffer);
    return;
  }
  if (queue_.size() >= kMaxQueuedBuffers) {
    ++queue_drops_;  // counted in buffers; the worker reports it
    lock.unlock();
    release_buffer(buffer);
    return;
  }
  queue_.push_back({buffer, valid});
  lock.unlock();
  wake_.notify_one();
}

void Recorder::read_controls() {
  pollfd p{fd_, POLLIN, 0};
  while (!parent_gone_ && poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
    char buf[256];
    ssize_t n = recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
    if (n <= 0) {
      if (n == 0) parent_gone_ = true;
      break;
    }
    control_in_.append(buf, static_cast<std::size_t>(n));
  }
  constexpr std::size_t kFrame = sizeof(wire::FrameHeader) + sizeof(wire::Control);
  while (control_in_.size() >= kFrame) {
    auto header = wire::read_fixed<wire::FrameHeader>(control_in_.data());
    if (header.type == static_cast<std::uint16_t>(wire::Type::kControl) && header.length == sizeof(wire::Control)) {
      auto c = wire::read_fixed<wire::Control>(control_in_.data() + sizeof header);
      auto cmd = static_cast<wire::ControlCommand>(c.command);
      if (cmd == wire::ControlCommand::kEnable)
        set_collecting(true, 0);
      else if (cmd == wire::ControlCommand::kDisable)
        set_collecting(false, 0);
      else if (cmd == wire::ControlCommand::kFlush && !yielded_)
        api_.flush_all(0);
    }
    control_in_.erase(0, kFrame);
  }
}

void Recorder::worker_loop() {
  auto last_flush = std::chrono::steady_clock::now();
  std::string out;
  while (true) {
    std::deque<Completed> batch;
    bool stopping = false;
    std::uint64_t queue_drops = 0, cupti_drops = 0;
    CaptureWindow graph_window{false};
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(20),
                     [&] { return !queue_.empty() || stopping_ || !pending_.empty(); });
      batch.swap(queue_);
      out.swap(pending_);
      stopping = stopping_;
      std::swap(queue_drops, queue_drops_);
      std::swap(cupti_drops, cupti_drops_);
      if (whole_graphs_ && !batch.empty()) graph_window = graph_window_;
    }
    if (queue_drops) {
      wire::append_frame(out, wire::Type::kLoss,
                         wire::Loss{queue_drops, static_cast<std::uint32_t>(wire::LossReason::kQueueFull), 0});
    }
    if (cupti_drops) {
      wire::append_frame(out, wire::Type::kLoss,
                         wire::Loss{cupti_drops, static_cast<std::uint32_t>(wire::LossReason::kCuptiDropped), 0});
    }
    if (!batch.empty()) send_clock_sync(out);
    for (const auto& c : batch) {
      std::uint64_t bad_before = encoder_->unreadable();
      encoder_->encode_buffer(c.buffer, c.valid, out, graph_window);
      release_buffer(c.buffer);
      if (encoder_->unreadable() != bad_before) {
        wire::append_frame(out, wire::Type::kLoss,
                           wire::Loss{1, static_cast<std::uint32_t>(wire::LossReason::kBadRecord), 0});
      }
      encoder_->append_unhandled(out);
      if (out.size() > (1u << 20)) {
        send_now(out);
        out.clear();
      }
    }
    collect_graph_launches(out, stopping);
    if (!out.empty()) send_now(out);
    out.clear();
    if (parent_gone_ && collecting_) set_collecting(false, 0);
    if (stopping) return;
    read_controls();
    auto now = std::chrono::steady_clock::now();
    if (now - last_flush >= std::chrono::milliseconds(flush_ms_)) {
      if (!yielded_) api_.flush_all(0);
      last_flush = now;
    }
  }
}

// The callback subscription serves --capture cuda-profiler and --graphs events, tells us
// when another tool already holds CUPTI, passes on CUPTI's warnings and says when the
// first context exists. Driver-API callbacks are enabled only where an option needs them:
// each one enabled puts the driver's calls through CUPTI's dispatcher.
CUptiResult Recorder::subscribe(CUpti_SubscriberHandle* subscriber, bool needed) {
  if (knobs_.subscribe == SubscribeMode::kNone && !needed) return CUPTI_ERROR_NOT_INITIALIZED;
  CUptiResult r = api_.subscribe(subscriber, reinterpret_cast<CUpti_CallbackFunc>(&on_callback), nullptr);
  if (r != CUPTI_SUCCESS) return r;
  subscriber_ = *subscriber;
  if (profiler_api_controls_ || knobs_.subscribe == SubscribeMode::kAll) {
    api_.enable_callback(1, *subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    api_.enable_callback(1, *subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
  }
  if (api_.enable_domain) api_.enable_domain(1, *subscriber, CUPTI_CB_DOMAIN_STATE);
  // Hardware event tracing can be asked for only once the driver is up: at the first context.
  api_.enable_callback(1, *subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
  return r;
}

// Buffers from the pool come zeroed: CUPTI is told so, and then leaves them as they are.
bool Recorder::register_buffers() {
  if (knobs_.buffers == BufferMode::kPool) {
    pool_ = std::make_unique<ActivityBufferPool>(knobs_.buffer_bytes, kPooledBuffers);
    std::uint8_t zeroed = 1;
    std::size_t size = sizeof zeroed;
    CUptiResult a = api_.set_attribute
                        ? api_.set_attribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &size, &zeroed)
                        : CUPTI_ERROR_NOT_SUPPORTED;
    if (a != CUPTI_SUCCESS) {
      notice(wire::NoticeCode::kInfo,
             std::string("CUPTI zeroes each activity buffer itself (ZEROED_OUT_ACTIVITY_BUFFER: ") +
                 api_.result_string(a) + ")");
    }
  }
  CUptiResult r = api_.register_callbacks(&on_buffer_requested, &on_buffer_completed);
  if (r == CUPTI_SUCCESS) return true;
  return give_up(wire::NoticeCode::kCuptiBusy, std::string("cuptiActivityRegisterCallbacks: ") + api_.result_string(r));
}

// Device records (UUIDs) always; CUPTI's graph tracing for --graphs whole and events.
// Under --graphs events it stays on as well, its records dropped: with it, CUPTI puts
// graph launches on a cheaper path (on the H200, +3.3% per replay against +5.8%
// without it; docs/record.md).
void Recorder::enable_graph_and_device_records() {
  if (knobs_.device_records) api_.enable(CUPTI_ACTIVITY_KIND_DEVICE);
  if (!knobs_.graph_trace.value_or(whole_graphs_ || graph_timer_)) return;
  CUptiResult r = api_.enable(CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
  if (r != CUPTI_SUCCESS) {
    notice(wire::NoticeCode::kCuptiError, std::string("cuptiActivityEnable(GRAPH_TRACE): ") + api_.result_string(r));
  }
}

void Recorder::start_worker() {
  worker_ = std::thread([this] {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);  // the host's signals go to the host's threads
    try {
      if (knobs_.worker_off_target_cpus) {
        std::string placed = move_worker_off_target_cpus();
        if (!placed.empty()) notice(wire::NoticeCode::kInfo, "recording thread: " + placed);
      }
      if (pool_) pool_->fill(kPrefilledBuffers);
      worker_loop();
    } catch (...) {
      parent_gone_ = true;
    }
  });
}

bool Recorder::start() {
  pid_ = getpid();
  const char* socket_path = std::getenv(wire::kSocketEnv);
  if (!socket_path || !*socket_path) return false;  // not under cuprobe record: stay silent
  if (!connect_parent(socket_path)) return false;
  knobs_ = read_inject_knobs([](const char* name) { return std::getenv(name); });
  std::string load_error = knobs_.load_cupti ? api_.load() : "CUPTI not loaded (CUPROBE_INJECT_CUPTI=0)";
  std::uint32_t version = 0;
  if (load_error.empty()) api_.get_version(&version);
  std::int64_t now = realtime_ns();
  std::uint64_t cupti_now = 0;
  if (load_error.empty()) api_.get_timestamp(&cupti_now);
  std::string hello;
  wire::append_frame(hello, wire::Type::kHello,
                     wire::Hello{wire::kMagic, wire::kVersion, 0, version, 0, pid_, getppid(), now,
                                 static_cast<std::int64_t>(cupti_now)},
                     command_line());
  send_now(hello);
  tell_rank();
  if (!knobs_.description.empty()) notice(wire::NoticeCode::kInfo, "cost switches: " + knobs_.description);
  for (const auto& p : knobs_.problems) notice(wire::NoticeCode::kInfo, "cost switch not understood, ignored: " + p);
  if (!knobs_.load_cupti) unsetenv("NVTX_INJECTION64_PATH");
  if (!load_error.empty()) return give_up(wire::NoticeCode::kCuptiError, "kernel tracing unavailable: " + load_error);
  // NVTX reaches CUPTI through NVTX_INJECTION64_PATH: point it at the copy in use.
  if (!api_.path.empty()) setenv("NVTX_INJECTION64_PATH", api_.path.c_str(), 1);
  if (const char* ms = std::getenv(wire::kFlushMsEnv)) {
    int v = std::atoi(ms);
    if (v >= 10 && v <= 60000) flush_ms_ = v;
  }
  const char* api_env = std::getenv(wire::kApiEnv);
  api_calls_ = api_env && std::strcmp(api_env, "1") == 0;
  const char* graphs_env = std::getenv(wire::kGraphsEnv);
  const std::string graphs = graphs_env ? graphs_env : "node";
  const char* kinds = knobs_.kinds ? knobs_.kinds->c_str() : std::getenv(wire::kKindsEnv);
  for (std::size_t i = 0; i < enum_count<ActivityKind>(); ++i) {
    if (knobs_.buffers != BufferMode::kNone && kind_in_list(enum_at<ActivityKind>(i), kinds)) wanted_kinds_ |= 1u << i;
  }
  const char* start_env = std::getenv(wire::kStartEnv);
  std::string start_mode = start_env ? start_env : "on";
  profiler_api_controls_ = start_mode == "cuda-profiler";

  keep_cupti_ = std::getenv(wire::kKeepCuptiEnv) && std::strcmp(std::getenv(wire::kKeepCuptiEnv), "1") == 0;
  CUpti_SubscriberHandle subscriber = nullptr;
  const bool callbacks_needed = profiler_api_controls_ || graphs == "events";
  const CUptiResult r_subscribed = subscribe(&subscriber, callbacks_needed);
  if (r_subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    return give_up(wire::NoticeCode::kCuptiBusy,
                   "another tool already holds CUPTI in this process (e.g. torch.profiler or Nsight): "
                   "kernels are not recorded here");
  }
  if (r_subscribed != CUPTI_SUCCESS && (knobs_.subscribe != SubscribeMode::kNone || callbacks_needed)) {
    notice(wire::NoticeCode::kCuptiError, std::string("cuptiSubscribe: ") + api_.result_string(r_subscribed) +
                                              " (--capture cuda-profiler will not see cudaProfilerStart)");
  }
  if (knobs_.buffers == BufferMode::kNone) {
    start_worker();  // CUPTI attached with no activity: nothing to record, the connection stays
    return true;
  }
  if (!register_buffers()) return false;
  if (r_subscribed != CUPTI_SUCCESS) on_context_created();  // no callback will come: ask now
  whole_graphs_ =
      graphs == "whole" || (graphs == "events" && !start_graph_events(subscriber, r_subscribed)) || graph_events_log_;
  enable_graph_and_device_records();
  encoder_ = std::make_unique<ActivityEncoder>(api_);
  if (start_mode == "on") set_collecting(true, 0);
  start_worker();
  return true;
}

bool all_digits(const char* s) {
  if (!s || !*s || std::strlen(s) > 9) return false;
  for (; *s; ++s)
    if (*s < '0' || *s > '9') return false;
  return true;
}

// torchrun (and most launchers) tell each process its place in the job; the
// run file keeps it so that each process becomes its rank in analyze.
void Recorder::tell_rank() {
  const char* rank = std::getenv("RANK");
  if (!all_digits(rank)) return;
  const char* world = std::getenv("WORLD_SIZE");
  std::string text = rank;
  if (all_digits(world)) text += std::string(" ") + world;
  notice(wire::NoticeCode::kRank, text);
}

// Blackwell can time kernels with its hardware event system instead of
// instrumentation around each launch; CUPTI refuses elsewhere, and we say which
// clock timed the kernels either way.
void Recorder::choose_kernel_timing() {
  const char* env = std::getenv(wire::kHwTraceEnv);
  std::string why;
  if (env && std::strcmp(env, "off") == 0) {
    why = "hardware event tracing switched off (--hw-trace off)";
  } else if (!api_.enable_hw_trace) {
    why = "this libcupti has no cuptiActivityEnableHWTrace";
  } else {
    CUptiResult r = api_.enable_hw_trace(1);
    if (r == CUPTI_SUCCESS) {
      notice(wire::NoticeCode::kKernelTiming, "hardware");
      return;
    }
    why = std::string("hardware event tracing unavailable: ") + api_.result_string(r);
  }
  notice(wire::NoticeCode::kKernelTiming, "software: " + why);
}

// A profiler started inside the recorded process (torch.profiler's Kineto) asks
// for CUPTI through the preloaded cuptiSubscribe at the end of this file. CUPTI
// serves one subscriber and one set of activity buffers per process: by default
// cuprobe hands both over, so that the user's profiler works; with --keep-cupti
// the other tool is refused. Either way the run file and stderr say so.
CUptiResult Recorder::on_foreign_subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                                           void* user_data, const std::string& caller) {
  if (!keep_cupti_) yield_cupti(caller);
  CUptiResult r = api_.subscribe(subscriber, callback, user_data);
  if (keep_cupti_ && r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    notice(wire::NoticeCode::kInfo, "another tool in this process (" + caller +
                                        ") asked for CUPTI and was refused (--keep-cupti): it records no GPU "
                                        "activity; cuprobe records on");
  }
  return r;
}

void Recorder::yield_cupti(const std::string& caller) {
  std::lock_guard once(yield_mutex_);
  if (yielded_) return;
  set_collecting(false, 2);
  api_.disable(CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
  api_.disable(CUPTI_ACTIVITY_KIND_DEVICE);
  // Every record so far reaches our buffers before the other tool registers its own.
  api_.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  yielded_ = true;
  if (subscriber_) api_.unsubscribe(subscriber_);
  subscriber_ = nullptr;
  notice(wire::NoticeCode::kCuptiYielded,
         "another tool in this process (" + caller +
             ") asked for CUPTI: handed over, kernels from now on are not recorded here (--keep-cupti keeps them "
             "and leaves that tool without GPU events)");
}

void Recorder::stop_at_exit() {
  if (getpid() != pid_) return;  // a forked child: its copy of us has no worker
  if (!yielded_) api_.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (worker_.joinable()) worker_.join();
  std::string bye;
  if (graph_timer_) {
    wire::append_frame(bye, wire::Type::kNotice, wire::Notice{static_cast<std::uint32_t>(wire::NoticeCode::kInfo), 0},
                       std::to_string(graph_timer_->timed()) +
                           " graph launches timed by CUDA events; their start times lie on the kernel clock within "
                           "+-" +
                           std::to_string((graph_timer_->anchor_spread_ns() + 1999) / 2000) + " us");
  }
  if (graph_events_log_) std::fclose(graph_events_log_);
  wire::append_frame(bye, wire::Type::kGoodbye, wire::Goodbye{realtime_ns(), encoder_ ? encoder_->records() : 0});
  send_now(bye);
  close(fd_);
  fd_ = -1;
}

void at_exit() {
  try {
    if (g_recorder) g_recorder->stop_at_exit();
  } catch (...) {
  }
}

}  // namespace
}  // namespace cuprobe::inject

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  using cuprobe::inject::g_recorder;
  try {
    if (g_recorder) return 1;
    auto* recorder = new cuprobe::inject::Recorder();
    if (!recorder->start()) return 1;  // not recording in this process; the program runs on unchanged
    g_recorder = recorder;
    std::atexit(&cuprobe::inject::at_exit);
  } catch (...) {
  }
  return 1;
}

namespace cuprobe::inject {
namespace {

CUptiResult(CUPTIAPI* real_subscribe())(CUpti_SubscriberHandle*, CUpti_CallbackFunc, void*) {
  using Subscribe = decltype(&::cuptiSubscribe);
  OpenedLibrary lib = open_library({"libcupti.so.13", "libcupti.so.12", "libcupti.so"}, RTLD_NOW | RTLD_NOLOAD);
  void* address = lib ? dlsym(lib.handle, "cuptiSubscribe") : dlsym(RTLD_NEXT, "cuptiSubscribe");
  return reinterpret_cast<Subscribe>(address);
}

// The file of the code at `address` ("unknown" when the loader cannot tell).
std::string object_at(void* address) {
  Dl_info info{};
  if (!dladdr(address, &info) || !info.dli_fname || !*info.dli_fname) return "unknown";
  std::string path = info.dli_fname;
  return path.substr(path.rfind('/') + 1);
}

}  // namespace
}  // namespace cuprobe::inject

// `cuprobe record` preloads this library (LD_PRELOAD) as well as injecting it, so
// that a profiler started inside a recorded process asks cuprobe for CUPTI first
// (Recorder::on_foreign_subscribe). CUPTI's own calls, and every call in a process
// that is not being recorded, go straight to the real function.
extern "C" __attribute__((visibility("default"))) CUptiResult CUPTIAPI
cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* user_data) {
  using namespace cuprobe::inject;
  static const auto real = real_subscribe();
  try {
    std::string caller = object_at(__builtin_return_address(0));
    if (g_recorder && caller.find("libcupti") == std::string::npos) {
      return g_recorder->on_foreign_subscribe(subscriber, callback, user_data, caller);
    }
  } catch (...) {
  }
  return real ? real(subscriber, callback, user_data) : CUPTI_ERROR_NOT_INITIALIZED;
}
