// Reads the device counters on its own thread for a whole bench run; the
// report keeps the rows of the steady window.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "collect/counters/device_sampler.h"

namespace cuprobe {

class SamplerThread {
 public:
  // Starts the sampler (may throw, exit 3, before any load is sent).
  explicit SamplerThread(std::unique_ptr<DeviceSampler> sampler);
  ~SamplerThread() { finish(); }
  SamplerThread(const SamplerThread&) = delete;
  SamplerThread& operator=(const SamplerThread&) = delete;

  // Stops sampling (once) and returns every row read.
  std::vector<CounterRow> finish();
  const std::vector<std::string>& metric_names() const { return sampler_->metric_names(); }
  std::int64_t lost() const { return sampler_->lost_samples(); }

 private:
  void take(std::vector<CounterRow> rows);
  std::unique_ptr<DeviceSampler> sampler_;
  std::atomic<bool> done_{false};
  std::mutex mu_;
  std::vector<CounterRow> rows_;
  std::thread thread_;
};

}  // namespace cuprobe
