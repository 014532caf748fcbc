#include "collect/pm_device_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "collect/counter_refusal.h"
#include "collect/metric_presets.h"
#include "common/error.h"

namespace cuprobe {
namespace {

constexpr int kMaxDecodeRounds = 64;  // per GPU per pass: bounds a decode that keeps saying "more"

class PmDeviceSampler final : public DeviceSampler {
 public:
  PmDeviceSampler(std::unique_ptr<PmBackend> backend, const SamplerConfig& config)
      : backend_(std::move(backend)), interval_ns_(config.interval.count()) {
    if (interval_ns_ <= 0) throw Error("sampling interval must be positive", kExitUsage);
    // Decoding costs CPU per call and per sample: decode every 50-100 ms, and size the
    // counter data image for about twice the samples one period brings.
    auto period = config.decode_period.count() > 0
                      ? config.decode_period
                      : std::clamp<std::chrono::nanoseconds>(config.interval, std::chrono::milliseconds(50),
                                                             std::chrono::milliseconds(100));
    decode_period_ = period;
    max_samples_ = static_cast<std::uint32_t>(
        std::clamp<std::int64_t>(2 * (period.count() / interval_ns_) + 16, 32, 1024));
    BackendStatus st = backend_->initialize();
    if (!st.ok()) throw counter_refusal(st, -1);
    int count = backend_->device_count();
    if (count <= 0) throw counter_refusal({CounterStatus::kNoGpu, ""}, -1);
    std::set<int> chosen;
    for (int g : config.gpus) {
      if (g < 0 || g >= count) {
        throw Error("GPU " + std::to_string(g) + " does not exist (" + std::to_string(count) +
                        " visible: 0.." + std::to_string(count - 1) + ")",
                    kExitUsage);
      }
      chosen.insert(g);
    }
    if (chosen.empty()) {
      for (int g = 0; g < count; ++g) chosen.insert(g);
    }
    gpus_.assign(chosen.begin(), chosen.end());
    for (int g : gpus_) {
      std::string chip;
      st = backend_->chip_name(g, chip);
      if (!st.ok()) throw counter_refusal(st, g);
      chips_.push_back(chip);
      auto metrics = resolve_metrics(chip, config.preset, config.metrics);
      if (g == gpus_.front()) {
        metrics_ = metrics;
      } else if (!same_columns(metrics, metrics_)) {
        throw Error("GPU " + std::to_string(gpus_.front()) + " (" + chips_.front() + ") and GPU " +
                        std::to_string(g) + " (" + chip +
                        ") sample different metrics: sample them separately with --gpu",
                    kExitUsage);
      }
    }
    drop_unavailable(!config.metrics.empty());
    for (const auto& m : metrics_) {
      names_.push_back(m.column);
      raw_.push_back(m.raw);
    }
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      st = backend_->enable(gpus_[i], raw_, interval_ns_, max_samples_);
      if (!st.ok()) {
        disable_all();
        throw counter_refusal(st, gpus_[i], chips_[i]);
      }
      enabled_ = true;
    }
    last_end_.assign(gpus_.size(), 0);
    overflowed_.assign(gpus_.size(), false);
  }

  ~PmDeviceSampler() override {
    try {
      stop();
    } catch (...) {
      // Destructors must not throw; stop() reports errors to callers that call it.
    }
    disable_all();
  }

  const std::vector<std::string>& metric_names() const override { return names_; }
  std::vector<std::string> skipped_metrics() const override { return skipped_; }
  std::vector<std::string> raw_metric_names() const override { return raw_; }
  std::vector<int> gpus() const override { return gpus_; }
  std::vector<std::string> chips() const override { return chips_; }

  void start() override {
    if (started_) return;
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      BackendStatus st = backend_->start(gpus_[i]);
      if (!st.ok()) {
        for (std::size_t j = 0; j < i; ++j) backend_->stop(gpus_[j]);
        throw counter_refusal(st, gpus_[i], chips_[i]);
      }
    }
    started_ = true;
    running_ = true;
    thread_ = std::thread([this] { decode_loop(); });
  }

  std::vector<CounterRow> drain() override {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<CounterRow> rows;
    rows.swap(queue_);
    if (rows.empty() && !error_.empty()) {
      std::string e = error_;
      error_.clear();
      throw Error(e, error_code_);
    }
    return rows;
  }

  void stop() override {
    if (!started_ || stopped_) return;
    stopped_ = true;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      running_ = false;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    std::string first_error;
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      BackendStatus st = backend_->stop(gpus_[i]);
      if (!st.ok() && first_error.empty()) first_error = counter_refusal_message(st, gpus_[i], chips_[i]);
    }
    decode_all();  // what the hardware recorded up to the stop
    if (!first_error.empty()) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (error_.empty()) {
        error_ = first_error;
        error_code_ = kExitFailed;
      }
    }
  }

  std::int64_t lost_samples() const override { return lost_.load(); }

 private:
  static bool same_columns(const std::vector<SampledMetric>& a, const std::vector<SampledMetric>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].column != b[i].column) return false;
    }
    return true;
  }

  // A preset column that some sampled GPU cannot read is left out (and listed in
  // skipped_metrics()); a raw metric the user named is an error instead.
  void drop_unavailable(bool raw_mode) {
    std::vector<std::string> raw;
    for (const auto& m : metrics_) raw.push_back(m.raw);
    std::vector<bool> keep(raw.size(), true);
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      std::vector<bool> available;
      BackendStatus st = backend_->metric_availability(gpus_[i], raw, available);
      if (!st.ok()) throw counter_refusal(st, gpus_[i], chips_[i]);
      available.resize(raw.size(), false);
      for (std::size_t m = 0; m < raw.size(); ++m) {
        if (available[m]) continue;
        if (raw_mode) {
          throw counter_refusal({CounterStatus::kInvalidMetric, "'" + raw[m] + "' is not available on GPU " +
                                                                    std::to_string(gpus_[i]) + " (" + chips_[i] + ")"},
                                gpus_[i], chips_[i]);
        }
        keep[m] = false;
      }
    }
    std::vector<SampledMetric> kept;
    for (std::size_t m = 0; m < metrics_.size(); ++m) {
      if (keep[m]) kept.push_back(metrics_[m]);
      else skipped_.push_back(metrics_[m].column);
    }
    if (kept.empty()) {
      throw counter_refusal({CounterStatus::kInvalidMetric, "no metric of the preset is available"}, gpus_.front(),
                            chips_.front());
    }
    metrics_ = std::move(kept);
  }

  void disable_all() {
    if (!enabled_) return;
    for (int g : gpus_) backend_->disable(g);
    enabled_ = false;
  }

  void decode_loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (running_) {
      wake_.wait_for(lock, decode_period_, [this] { return !running_; });
      if (!running_) break;
      lock.unlock();
      decode_all();
      lock.lock();
    }
  }

  // Decodes every GPU's buffer and queues the rows. Runs on the decode thread, or on the
  // caller's thread once that thread has been joined: never on both at once.
  void decode_all() {
    std::vector<CounterRow> rows;
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      for (int round = 0; round < kMaxDecodeRounds; ++round) {
        std::vector<RawSample> samples;
        DecodeResult result;
        BackendStatus st = backend_->decode(gpus_[i], samples, result);
        bool overflow = result.overflow || st.code == CounterStatus::kOverflow;
        if (!st.ok() && st.code != CounterStatus::kOverflow) {
          std::lock_guard<std::mutex> lock(mutex_);
          if (error_.empty()) {
            error_ = counter_refusal_message(st, gpus_[i], chips_[i]);
            error_code_ = kExitFailed;
          }
          break;
        }
        if (overflow) {
          overflowed_[i] = true;
          ++overflow_events_;
        }
        for (auto& s : samples) rows.push_back(to_row(i, std::move(s)));
        if (!result.more) break;
      }
    }
    if (rows.empty()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.insert(queue_.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
  }

  CounterRow to_row(std::size_t index, RawSample&& s) {
    // After an overflow the hardware dropped records: the gap to the next decoded sample,
    // in intervals, is the number lost.
    if (overflowed_[index] && last_end_[index] > 0 && s.start_ns > last_end_[index]) {
      double gap = static_cast<double>(s.start_ns - last_end_[index]) / static_cast<double>(interval_ns_);
      lost_ += std::max<std::int64_t>(1, std::llround(gap));
      overflowed_[index] = false;
    }
    last_end_[index] = s.end_ns;
    CounterRow row;
    row.gpu = gpus_[index];
    row.start_ns = s.start_ns;
    row.end_ns = s.end_ns;
    row.values = std::move(s.values);
    row.values.resize(names_.size(), std::nan(""));
    return row;
  }

  std::unique_ptr<PmBackend> backend_;
  std::int64_t interval_ns_;
  std::chrono::nanoseconds decode_period_{};
  std::uint32_t max_samples_ = 1024;
  std::vector<int> gpus_;
  std::vector<std::string> chips_;
  std::vector<SampledMetric> metrics_;
  std::vector<std::string> names_, raw_, skipped_;
  bool enabled_ = false, started_ = false, stopped_ = false;
  std::vector<std::int64_t> last_end_;
  std::vector<bool> overflowed_;
  std::atomic<std::int64_t> lost_{0};
  std::int64_t overflow_events_ = 0;

  std::mutex mutex_;
  std::condition_variable wake_;
  bool running_ = false;
  std::vector<CounterRow> queue_;
  std::string error_;
  int error_code_ = kExitFailed;
  std::thread thread_;
};

}  // namespace

std::unique_ptr<DeviceSampler> open_pm_sampler(std::unique_ptr<PmBackend> backend, const SamplerConfig& config) {
  if (!backend) {
    throw Error("built without CUPTI: this cuprobe cannot read GPU counters; rebuild it on a host with "
                "the CUDA toolkit (12.8 or newer)",
                kExitCountersUnavailable);
  }
  return std::make_unique<PmDeviceSampler>(std::move(backend), config);
}

std::unique_ptr<DeviceSampler> open_device_sampler(const SamplerConfig& config) {
  return open_pm_sampler(make_cupti_backend(), config);
}

}  // namespace cuprobe
