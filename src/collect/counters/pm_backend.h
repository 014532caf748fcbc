// What the PM sampler needs from CUPTI, as an interface without CUDA headers:
// src/collect/cupti/ implements it with CUPTI and the driver; tests drive fakes
// through it to check every refusal path without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cuprobe {

// Why counters could not be read. Frozen: names appear in `devices --json`.
enum class CounterStatus {
  kOk,
  kNoDriver,                // libcuda.so.1 missing or cuInit failed for a driver reason
  kNoGpu,                   // driver fine, no CUDA device visible
  kInsufficientPrivileges,  // NVreg_RestrictProfilingToAdminUsers=1 and not root
  kBusy,                    // another profiler/sampler holds the counters
  kUnsupportedDevice,       // chip/configuration cannot be profiled (too old, vGPU, MIG, CC, ...)
  kUnsupportedChip,         // CUPTI does not know the chip name
  kInvalidMetric,           // a metric name is not valid for the chip
  kTooManyMetrics,          // the metrics need more than one pass
  kOverflow,                // hardware buffer overflowed (decode)
  kOther,
};

const char* counter_status_name(CounterStatus status);  // "ok", "no_driver", "busy", ...

struct BackendStatus {
  CounterStatus code = CounterStatus::kOk;
  std::string detail;  // e.g. "cuptiPmSamplingEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"
  bool ok() const { return code == CounterStatus::kOk; }
};

struct RawSample {
  std::int64_t start_ns = 0, end_ns = 0;  // CLOCK_REALTIME
  std::vector<double> values;             // NaN where the value could not be evaluated
};

// How the hardware samples and how much one decode() may return.
struct PmSamplingSettings {
  std::int64_t interval_ns = 100000000;
  std::uint32_t max_samples = 1024;              // the counter data image's capacity, in samples (kept across decodes)
  std::size_t hardware_buffer_bytes = 4u << 20;  // where the GPU writes raw records between decodes
};

struct DecodeResult {
  bool overflow = false;  // the hardware buffer overflowed since the last decode
  bool more = false;      // the counter data image filled up: decode again
  // Samples not emitted because an image reset cut them (collect/counters/counter_image_cursor.h).
  std::size_t dropped_partials = 0;
};

class PmBackend {
 public:
  virtual ~PmBackend() = default;
  virtual BackendStatus initialize() = 0;  // driver and profiler; once
  virtual int device_count() = 0;
  virtual BackendStatus chip_name(int gpu, std::string& chip) = 0;
  virtual std::string device_name(int gpu) = 0;
  // Which of `raw_metrics` this device can sample, judged one by one against its counter
  // availability (a chip's metric list can hold counters a given board does not expose).
  virtual BackendStatus metric_availability(int gpu, const std::vector<std::string>& raw_metrics,
                                            std::vector<bool>& available) = 0;
  // Builds the config (one pass) for `raw_metrics` and enables PM sampling on the device.
  virtual BackendStatus enable(int gpu, const std::vector<std::string>& raw_metrics,
                               const PmSamplingSettings& settings) = 0;
  virtual BackendStatus start(int gpu) = 0;
  virtual BackendStatus stop(int gpu) = 0;
  virtual BackendStatus decode(int gpu, std::vector<RawSample>& out, DecodeResult& result) = 0;
  virtual void disable(int gpu) = 0;  // safe to call on a GPU that was never enabled
  // Now, on the clock of RawSample timestamps; 0 when the backend cannot tell.
  virtual std::int64_t clock_ns() = 0;
  // Checks that counters can be read on the device now (enables and disables sampling).
  virtual BackendStatus probe(int gpu) = 0;
};

// The CUPTI backend, or nullptr when built without CUPTI.
std::unique_ptr<PmBackend> make_cupti_backend();

}  // namespace cuprobe
