#include "collect/counters/synthetic_pm_backend.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>

#include "collect/counters/counter_image_cursor.h"
#include "collect/counters/parted_pm_samples.h"
#include "common/clock.h"

namespace cuprobe {
namespace {

bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v && std::string(v) == value;
}

// CUPROBE_TEST_PM_PARTS=K: each sample arrives in K records (parted_pm_samples.h); 0 when unset.
int parts_per_sample() {
  const char* v = std::getenv("CUPROBE_TEST_PM_PARTS");
  return v ? std::max(0, std::atoi(v)) : 0;
}

class SyntheticPmBackend final : public PmBackend {
 public:
  BackendStatus initialize() override { return {}; }
  int device_count() override {
    const char* n = std::getenv("CUPROBE_TEST_PM_GPUS");
    return n ? std::atoi(n) : 2;
  }
  BackendStatus chip_name(int, std::string& chip) override {
    chip = "GH100";
    return {};
  }
  std::string device_name(int) override { return "NVIDIA H200 (synthetic)"; }
  BackendStatus metric_availability(int, const std::vector<std::string>& raw, std::vector<bool>& available) override {
    available.assign(raw.size(), true);
    return {};
  }
  BackendStatus enable(int gpu, const std::vector<std::string>& raw, const PmSamplingSettings& settings) override {
    if (env_is("CUPROBE_TEST_PM_BUSY", "1")) {
      return {CounterStatus::kBusy, "synthetic backend: CUPROBE_TEST_PM_BUSY=1"};
    }
    std::lock_guard<std::mutex> lock(mutex_);
    Device& d = devices_[gpu];
    d.metrics = raw;
    d.interval_ns = settings.interval_ns;
    d.max_samples = settings.max_samples;
    d.parts = parts_per_sample();
    return {};
  }
  BackendStatus start(int gpu) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Device& d = devices_[gpu];
    d.next_ns = realtime_ns();
    d.running = true;
    if (d.parts > 0) {
      d.parted.emplace(d.next_ns, d.interval_ns, d.parts, d.max_samples);
      d.cursor.restart();
    }
    return {};
  }
  BackendStatus stop(int gpu) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Device& d = devices_[gpu];
    d.running = false;
    if (d.parted) d.parted->stop(realtime_ns());
    return {};
  }
  BackendStatus decode(int gpu, std::vector<RawSample>& out, DecodeResult& result) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Device& d = devices_[gpu];
    out.clear();
    if (d.interval_ns <= 0) return {};
    std::int64_t now = realtime_ns();
    if (d.parted) {
      PartedDecode decoded = decode_with_cursor(*d.parted, d.cursor, now);
      for (const PartedSample& p : decoded.samples) {
        RawSample s;
        s.start_ns = p.start_ns;
        s.end_ns = p.end_ns;
        for (const auto& m : d.metrics) s.values.push_back(p.fraction * synthetic_pm_value(m, gpu));
        out.push_back(std::move(s));
      }
      result.dropped_partials = decoded.dropped_partials;
      result.more = decoded.full;
      return {};
    }
    while (d.next_ns + d.interval_ns <= now && out.size() < d.max_samples) {
      RawSample s;
      s.start_ns = d.next_ns;
      s.end_ns = d.next_ns + d.interval_ns;
      for (const auto& m : d.metrics) s.values.push_back(synthetic_pm_value(m, gpu));
      out.push_back(std::move(s));
      d.next_ns += d.interval_ns;
    }
    result.more = d.next_ns + d.interval_ns <= now;
    return {};
  }
  void disable(int gpu) override {
    std::lock_guard<std::mutex> lock(mutex_);
    devices_.erase(gpu);
  }
  std::int64_t clock_ns() override { return realtime_ns(); }
  BackendStatus probe(int) override {
    if (env_is("CUPROBE_TEST_PM_BUSY", "1")) return {CounterStatus::kBusy, "synthetic backend"};
    return {};
  }

 private:
  struct Device {
    std::vector<std::string> metrics;
    std::int64_t interval_ns = 0, next_ns = 0;
    std::uint32_t max_samples = 1024;
    bool running = false;
    int parts = 0;
    std::optional<PartedPmSamples> parted;  // when parts > 0, from start() on
    CounterImageCursor cursor;
  };
  std::mutex mutex_;
  std::map<int, Device> devices_;
};

}  // namespace

double synthetic_pm_value(const std::string& raw, int gpu) {
  if (raw.find("per_second") != std::string::npos) return 1e9 * (gpu + 1);
  if (raw.find("pct") == std::string::npos) return 1;
  if (raw.find("tensor") != std::string::npos) return 42.5 + gpu;
  return 60 + gpu;
}

std::unique_ptr<PmBackend> make_synthetic_pm_backend() { return std::make_unique<SyntheticPmBackend>(); }

}  // namespace cuprobe
