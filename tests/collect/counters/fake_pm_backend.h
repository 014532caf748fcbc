// A scripted PmBackend for tests: each step's status can be set, and decode()
// hands out queued samples.
#pragma once

#include <atomic>
#include <cmath>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "collect/counters/pm_backend.h"

namespace cuprobe::test {

struct FakeBackendScript {
  BackendStatus init;
  int devices = 1;
  std::map<int, std::string> chips;  // default "GH100"
  std::map<int, BackendStatus> chip_status, enable_status, start_status, probe_status;
  std::map<int, std::deque<std::vector<RawSample>>> decodes;  // per GPU, one batch per decode call
  std::map<int, std::deque<bool>> overflow_on_decode;
  std::map<int, std::deque<std::size_t>> dropped_partials_on_decode;
  BackendStatus decode_error;                           // returned by every decode when set
  std::map<int, std::vector<std::string>> unavailable;  // raw metrics a GPU does not expose
};

struct FakeBackendLog {
  std::mutex mutex;
  std::vector<std::string> calls;  // "enable 0", "start 0", "stop 0", "disable 0", ...
  std::vector<std::string> enabled_metrics;
  std::int64_t enabled_interval = 0;
  std::uint32_t max_samples = 0;
  std::size_t hardware_buffer_bytes = 0;
  std::atomic<std::int64_t> clock_ns{0};  // what the backend's clock says (0 = unknown); tests move it
  void add(const std::string& s) {
    std::lock_guard<std::mutex> lock(mutex);
    calls.push_back(s);
  }
  int count(const std::string& s) {
    std::lock_guard<std::mutex> lock(mutex);
    int n = 0;
    for (const auto& c : calls) n += c == s;
    return n;
  }
};

class FakePmBackend : public PmBackend {
 public:
  FakePmBackend(FakeBackendScript script, FakeBackendLog* log) : s_(std::move(script)), log_(log) {}
  BackendStatus initialize() override {
    log_->add("initialize");
    return s_.init;
  }
  int device_count() override { return s_.devices; }
  std::string device_name(int) override { return "Fake GPU"; }
  BackendStatus chip_name(int gpu, std::string& chip) override {
    chip = s_.chips.count(gpu) ? s_.chips[gpu] : "GH100";
    return s_.chip_status[gpu];
  }
  BackendStatus metric_availability(int gpu, const std::vector<std::string>& raw,
                                    std::vector<bool>& available) override {
    available.clear();
    for (const auto& m : raw) {
      bool missing = false;
      for (const auto& u : s_.unavailable[gpu]) missing |= u == m;
      available.push_back(!missing);
    }
    return {};
  }
  BackendStatus enable(int gpu, const std::vector<std::string>& metrics, const PmSamplingSettings& settings) override {
    log_->max_samples = settings.max_samples;
    log_->hardware_buffer_bytes = settings.hardware_buffer_bytes;
    log_->add("enable " + std::to_string(gpu));
    log_->enabled_metrics = metrics;
    log_->enabled_interval = settings.interval_ns;
    return s_.enable_status[gpu];
  }
  BackendStatus start(int gpu) override {
    log_->add("start " + std::to_string(gpu));
    return s_.start_status[gpu];
  }
  BackendStatus stop(int gpu) override {
    log_->add("stop " + std::to_string(gpu));
    return {};
  }
  BackendStatus decode(int gpu, std::vector<RawSample>& out, DecodeResult& result) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!s_.decode_error.ok()) return s_.decode_error;
    auto& q = s_.decodes[gpu];
    if (!q.empty()) {
      out = q.front();
      q.pop_front();
    }
    auto& o = s_.overflow_on_decode[gpu];
    if (!o.empty()) {
      result.overflow = o.front();
      o.pop_front();
    }
    auto& dropped = s_.dropped_partials_on_decode[gpu];
    if (!dropped.empty()) {
      result.dropped_partials = dropped.front();
      dropped.pop_front();
    }
    return {};
  }
  void disable(int gpu) override { log_->add("disable " + std::to_string(gpu)); }
  std::int64_t clock_ns() override { return log_->clock_ns.load(); }
  BackendStatus probe(int gpu) override { return s_.probe_status[gpu]; }

 private:
  FakeBackendScript s_;
  FakeBackendLog* log_;
  std::mutex mutex_;
};

inline RawSample raw_sample(std::int64_t start_ns, std::int64_t end_ns, std::vector<double> values) {
  RawSample s;
  s.start_ns = start_ns;
  s.end_ns = end_ns;
  s.values = std::move(values);
  return s;
}

}  // namespace cuprobe::test
