// Device-wide hardware counter sampling (CUPTI PM sampling): one sampler reads
// the counters of one or more GPUs, whatever process runs the kernels.
// No CUDA headers here: `cuprobe sample`, `cuprobe bench --sample` and
// `cuprobe record` use this interface whether or not CUPTI was built in.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cuprobe {

struct SamplerConfig {
  std::vector<int> gpus;  // empty = all GPUs
  std::chrono::nanoseconds interval = std::chrono::milliseconds(100);
  std::string preset = "triage";
  std::vector<std::string> metrics;           // raw metric names; when non-empty they replace the preset
  std::chrono::nanoseconds decode_period{0};  // how often the sampler's thread decodes; 0 = from interval
  std::size_t hardware_buffer_bytes = 0;      // the GPU-side record buffer; 0 = sized from interval and period
};

struct CounterRow {
  int gpu = -1;
  std::int64_t start_ns = 0, end_ns = 0;  // CLOCK_REALTIME nanoseconds (unix epoch) — one clock for all of cuprobe
  std::vector<double> values;             // same order as metric_names(); NaN = not read (never 0 for "not read")
};

class DeviceSampler {
 public:
  virtual ~DeviceSampler() = default;
  virtual const std::vector<std::string>& metric_names() const = 0;
  virtual void start() = 0;
  virtual std::vector<CounterRow> drain() = 0;    // rows decoded since the last call (call it every ~100 ms)
  virtual void stop() = 0;                        // flushes; drain() afterwards returns the rest
  virtual std::int64_t lost_samples() const = 0;  // gaps in the sample stream (overflow, stalls), counted
  virtual int restarts() const { return 0; }      // times a stalled or overflowed GPU was restarted
  // GPU indices actually sampled (CUDA device ordinals), ascending.
  virtual std::vector<int> gpus() const { return {}; }
  // Chip name per sampled GPU (same order as gpus()), e.g. "GH100".
  virtual std::vector<std::string> chips() const { return {}; }
  // Preset columns left out because a sampled GPU does not expose them (e.g. NVLink).
  virtual std::vector<std::string> skipped_metrics() const { return {}; }
  // Raw CUPTI metric behind each of metric_names() (same order).
  virtual std::vector<std::string> raw_metric_names() const { return metric_names(); }
};

// Throws cuprobe::Error with exit code 3 and a one-line reason + what to do (no GPU, no driver,
// NVreg_RestrictProfilingToAdminUsers, counters busy, unsupported chip, built without CUPTI).
// Bad metric or preset names throw with exit code 2.
std::unique_ptr<DeviceSampler> open_device_sampler(const SamplerConfig& config);

}  // namespace cuprobe
