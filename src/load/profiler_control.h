// Starts and stops the server's torch profiler over HTTP during a bench run.
// SGLang: POST /start_profile {"output_dir", "num_steps", "activities"} and
// POST /stop_profile (with num_steps the server stops by itself). vLLM: POST
// /start_profile and /stop_profile; traces go to VLLM_TORCH_PROFILER_DIR on
// the server. The calls run on a worker thread, so the load loop never waits
// for them (SGLang's stop can take seconds while it writes the trace).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "net/http_client_config.h"
#include "net/http_url.h"

namespace cuprobe {

enum class ProfilerKind { kSglang, kVllm };

struct ProfileSettings {
  ProfilerKind kind = ProfilerKind::kSglang;
  std::string output_dir;      // SGLang only; "" = the server's SGLANG_TORCH_PROFILER_DIR
  std::int64_t num_steps = 0;  // SGLang only; 0 = until /stop_profile
  std::vector<std::string> activities = {"CPU", "GPU"};
  std::chrono::nanoseconds call_timeout = std::chrono::minutes(10);
};

struct ProfileCallResult {
  bool attempted = false;
  bool ok = false;
  std::int64_t sent_realtime_ns = 0, answered_realtime_ns = 0;
  int status = 0;
  std::string response;  // body excerpt, or the network error
};

struct ProfileOutcome {
  ProfileSettings settings;
  ProfileCallResult start, stop;
  bool auto_stop = false;  // SGLang with num_steps: no /stop_profile sent
  std::string trace_location;
  std::string note;  // why the profiler was not started, when it was not
};

std::string start_profile_body(const ProfileSettings& settings);  // "" for vLLM

class ProfilerControl {
 public:
  ProfilerControl(HttpUrl server, HttpClientConfig client, ProfileSettings settings, std::int64_t realtime_offset_ns);
  ~ProfilerControl();
  void request_start();        // queue POST /start_profile
  void request_stop();         // queue POST /stop_profile (skipped when the server stops by itself)
  void skip(std::string why);  // the profiler will not be started; say why
  ProfileOutcome finish();     // waits for the queued calls

 private:
  void run_call(const char* path, const std::string& body, ProfileCallResult& out);
  void worker();

  HttpUrl server_;
  HttpClientConfig client_;
  ProfileOutcome outcome_;
  std::int64_t offset_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool closing_ = false;
  std::thread thread_;
};

}  // namespace cuprobe
