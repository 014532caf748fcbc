#include "load/profiler_control.h"

#include <nlohmann/json.hpp>

#include "common/clock.h"
#include "common/utf8.h"
#include "net/http_fetch.h"

namespace cuprobe {

std::string start_profile_body(const ProfileSettings& settings) {
  if (settings.kind == ProfilerKind::kVllm) return "";
  nlohmann::json body = nlohmann::json::object();
  if (!settings.output_dir.empty()) body["output_dir"] = settings.output_dir;
  if (settings.num_steps > 0) body["num_steps"] = settings.num_steps;
  body["activities"] = settings.activities;
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);  // a --profile-dir not in UTF-8
}

ProfilerControl::ProfilerControl(HttpUrl server, HttpClientConfig client, ProfileSettings settings,
                                 std::int64_t realtime_offset_ns)
    : server_(std::move(server)), client_(std::move(client)), offset_(realtime_offset_ns) {
  outcome_.settings = std::move(settings);
  outcome_.auto_stop = outcome_.settings.kind == ProfilerKind::kSglang && outcome_.settings.num_steps > 0;
  if (outcome_.settings.kind == ProfilerKind::kVllm) {
    outcome_.trace_location = "VLLM_TORCH_PROFILER_DIR on the server host";
  } else if (outcome_.settings.output_dir.empty()) {
    outcome_.trace_location = "SGLANG_TORCH_PROFILER_DIR on the server host (default /tmp)";
  } else {
    outcome_.trace_location = outcome_.settings.output_dir + " on the server host";
  }
  thread_ = std::thread([this] { worker(); });
}

ProfilerControl::~ProfilerControl() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closing_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProfilerControl::run_call(const char* path, const std::string& body, ProfileCallResult& out) {
  out.attempted = true;
  out.sent_realtime_ns = mono_ns() + offset_;
  HttpFetchResult r = http_fetch(server_, client_, "POST", server_.path + path, body, outcome_.settings.call_timeout);
  out.answered_realtime_ns = mono_ns() + offset_;
  out.status = r.status;
  out.ok = r.responded && r.status >= 200 && r.status < 300;
  out.response = repair_utf8(r.responded ? r.body.substr(0, 500) : r.error + ": " + r.detail);
  while (!out.response.empty() && (out.response.back() == '\n' || out.response.back() == ' ')) out.response.pop_back();
}

void ProfilerControl::request_start() {
  std::string body = start_profile_body(outcome_.settings);
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back([this, body] { run_call("/start_profile", body, outcome_.start); });
  }
  cv_.notify_all();
}

void ProfilerControl::request_stop() {
  if (outcome_.auto_stop) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back([this] {
      if (outcome_.start.ok) run_call("/stop_profile", "", outcome_.stop);
    });
  }
  cv_.notify_all();
}

void ProfilerControl::worker() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return closing_ || !queue_.empty(); });
    if (queue_.empty()) return;
    auto job = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
}

void ProfilerControl::skip(std::string why) {
  std::lock_guard<std::mutex> lock(mu_);
  outcome_.note = std::move(why);
}

ProfileOutcome ProfilerControl::finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closing_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  return outcome_;
}

}  // namespace cuprobe
