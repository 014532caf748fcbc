#include "collect/counters/pm_device_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>

#include "collect/counters/counter_refusal.h"
#include "collect/counters/metric_presets.h"
#include "collect/counters/pm_sampling_plan.h"
#include "common/error.h"

namespace cuprobe {
namespace {

constexpr int kMaxDecodeRounds = 64;  // per GPU per pass: bounds a decode that keeps saying "more"

class PmDeviceSampler final : public DeviceSampler {
 public:
  PmDeviceSampler(std::unique_ptr<PmBackend> backend, const SamplerConfig& config)
      : backend_(std::move(backend)), interval_ns_(config.interval.count()) {
    if (interval_ns_ <= 0) throw Error("sampling interval must be positive", kExitUsage);
    PmSamplingPlan plan = plan_pm_sampling(config.interval, config.decode_period, config.hardware_buffer_bytes);
    decode_period_ = plan.decode_period;
    settings_.interval_ns = interval_ns_;
    settings_.max_samples = plan.max_samples;
    settings_.hardware_buffer_bytes = plan.hardware_buffer_bytes;
    BackendStatus st = backend_->initialize();
    if (!st.ok()) throw counter_refusal(st, -1);
    int count = backend_->device_count();
    if (count <= 0) throw counter_refusal({CounterStatus::kNoGpu, ""}, -1);
    std::set<int> chosen;
    for (int g : config.gpus) {
      if (g < 0 || g >= count) {
        throw Error("GPU " + std::to_string(g) + " does not exist (" + std::to_string(count) + " visible: 0.." +
                        std::to_string(count - 1) + ")",
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
        throw Error("GPU " + std::to_string(gpus_.front()) + " (" + chips_.front() + ") and GPU " + std::to_string(g) +
                        " (" + chip + ") sample different metrics: sample them separately with --gpu",
                    kExitUsage);
      }
    }
    drop_unavailable(!config.metrics.empty());
    for (const auto& m : metrics_) {
      names_.push_back(m.column);
      raw_.push_back(m.raw);
    }
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      st = backend_->enable(gpus_[i], raw_, settings_);
      if (!st.ok()) {
        disable_all();
        throw counter_refusal(st, gpus_[i], chips_[i]);
      }
      enabled_ = true;
    }
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
    streams_.assign(gpus_.size(), Stream{});
    std::int64_t now = backend_->clock_ns();
    for (auto& st : streams_) st.resumed_ns = now;
    // One decoding thread per GPU: CUPTI's decode costs CPU per sample, and one thread
    // could not keep up with many GPUs at short intervals.
    for (std::size_t i = 0; i < gpus_.size(); ++i) threads_.emplace_back([this, i] { decode_loop(i); });
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
    for (auto& t : threads_) {
      if (t.joinable()) t.join();
    }
    std::string first_error;
    std::int64_t stop_ns = backend_->clock_ns();
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      BackendStatus st = backend_->stop(gpus_[i]);
      if (!st.ok() && first_error.empty()) first_error = counter_refusal_message(st, gpus_[i], chips_[i]);
    }
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      decode_gpu(i);  // what the hardware recorded up to the stop
      count_silence(i, stop_ns);
    }
    if (!first_error.empty()) remember_error(first_error);
  }

  std::int64_t lost_samples() const override { return lost_.load(); }
  int restarts() const override { return restarts_.load(); }

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
      if (keep[m])
        kept.push_back(metrics_[m]);
      else
        skipped_.push_back(metrics_[m].column);
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

  void decode_loop(std::size_t index) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (running_) {
      wake_.wait_for(lock, decode_period_, [this] { return !running_; });
      if (!running_) break;
      lock.unlock();
      decode_gpu(index);
      restart_if_stalled(index);
      lock.lock();
    }
  }

  // Decodes one GPU's buffer and queues the rows. Runs on that GPU's thread, or on the
  // caller's thread once the threads have been joined: never on both at once.
  void decode_gpu(std::size_t i) {
    std::vector<CounterRow> rows;
    for (int round = 0; round < kMaxDecodeRounds; ++round) {
      std::vector<RawSample> samples;
      DecodeResult result;
      BackendStatus st = backend_->decode(gpus_[i], samples, result);
      if (!st.ok() && st.code != CounterStatus::kOverflow) {
        remember_error(counter_refusal_message(st, gpus_[i], chips_[i]));
        break;
      }
      if (result.overflow || st.code == CounterStatus::kOverflow) streams_[i].overflowed = true;
      if (result.dropped_partials > 0) {
        lost_ += static_cast<std::int64_t>(result.dropped_partials);
        streams_[i].dropped_partials += static_cast<std::int64_t>(result.dropped_partials);
      }
      for (auto& s : samples) rows.push_back(to_row(i, std::move(s)));
      if (!result.more) break;
    }
    if (rows.empty()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.insert(queue_.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
  }

  // A hardware buffer that overflowed stops delivering samples (seen on GH100), as may
  // other faults: after an overflow, or when no sample came for much longer than the
  // decode period, stop and restart sampling on that GPU. The gap is counted as lost.
  void restart_if_stalled(std::size_t i) {
    Stream& st = streams_[i];
    std::int64_t now = backend_->clock_ns();
    std::int64_t last = std::max(st.last_end_ns, st.resumed_ns);
    std::int64_t patience = std::max<std::int64_t>({20 * interval_ns_, 4 * decode_period_.count(), 250000000});
    if (st.last_end_ns == 0) patience = std::max<std::int64_t>(patience, 2000000000);  // the first sample's latency
    bool silent = now > 0 && last > 0 && now - last > patience;
    if (!st.overflowed && !silent) return;
    backend_->stop(gpus_[i]);
    decode_gpu(i);
    count_silence(i, backend_->clock_ns());  // from here on, a slow restart's time counts as lost too
    st.overflowed = false;
    BackendStatus started = backend_->start(gpus_[i]);
    ++restarts_;
    if (!started.ok()) remember_error(counter_refusal_message(started, gpus_[i], chips_[i]));
  }

  // The first error wins; drain() throws it once the rows before it are out.
  void remember_error(const std::string& message) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_.empty()) {
      error_ = message;
      error_code_ = kExitFailed;
    }
  }

  // Samples the hardware should have delivered between the last one decoded (or the
  // start) and `until_ns` but did not, beyond the partial sample a stop cuts off.
  void count_silence(std::size_t i, std::int64_t until_ns) {
    Stream& st = streams_[i];
    std::int64_t from = std::max(st.last_end_ns, st.resumed_ns);
    if (from <= 0 || until_ns <= 0) return;
    std::int64_t missing = (until_ns - from) / interval_ns_ - 2 - st.dropped_partials;
    if (missing > 0) lost_ += missing;
    st.dropped_partials = 0;
    st.last_end_ns = 0;  // accounted up to here; a restart begins a new stream
    st.resumed_ns = until_ns;
  }

  CounterRow to_row(std::size_t index, RawSample&& s) {
    // Samples follow each other without gaps: a gap of more than one and a half
    // intervals is samples the hardware dropped (overflow) or never took.
    // Partial samples the backend dropped before this one are counted already.
    Stream& st = streams_[index];
    if (st.last_end_ns > 0 && s.start_ns - st.last_end_ns >= interval_ns_ + interval_ns_ / 2) {
      double gap = static_cast<double>(s.start_ns - st.last_end_ns) / static_cast<double>(interval_ns_);
      lost_ += std::max<std::int64_t>(0, std::max<std::int64_t>(1, std::llround(gap)) - st.dropped_partials);
    }
    st.dropped_partials = 0;
    st.last_end_ns = std::max(st.last_end_ns, s.end_ns);
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
  PmSamplingSettings settings_;
  std::vector<int> gpus_;
  std::vector<std::string> chips_;
  std::vector<SampledMetric> metrics_;
  std::vector<std::string> names_, raw_, skipped_;
  bool enabled_ = false, started_ = false, stopped_ = false;
  struct Stream {                       // one per sampled GPU, touched by that GPU's thread only
    std::int64_t last_end_ns = 0;       // end of the last sample decoded
    std::int64_t resumed_ns = 0;        // when sampling (re)started, on the samples' clock
    std::int64_t dropped_partials = 0;  // counted as lost since the last row (gap not to count twice)
    bool overflowed = false;
  };
  std::vector<Stream> streams_;
  std::atomic<std::int64_t> lost_{0};
  std::atomic<int> restarts_{0};

  std::mutex mutex_;
  std::condition_variable wake_;
  bool running_ = false;
  std::vector<CounterRow> queue_;
  std::string error_;
  int error_code_ = kExitFailed;
  std::vector<std::thread> threads_;
};

}  // namespace

std::unique_ptr<DeviceSampler> open_pm_sampler(std::unique_ptr<PmBackend> backend, const SamplerConfig& config) {
  if (!backend) {
    throw Error(
        "built without CUPTI: this cuprobe cannot read GPU counters; rebuild it on a host with "
        "the CUDA toolkit (12.8 or newer)",
        kExitCountersUnavailable);
  }
  return std::make_unique<PmDeviceSampler>(std::move(backend), config);
}

namespace {

// Tuning overrides for measuring the sampler's own cost (bench/gpu/sample_cost_matrix.sh).
SamplerConfig with_tuning_overrides(SamplerConfig config) {
  if (const char* mib = std::getenv("CUPROBE_PM_HW_BUFFER_MIB"); mib && std::atoi(mib) > 0) {
    config.hardware_buffer_bytes = static_cast<std::size_t>(std::atoi(mib)) << 20;
  }
  if (const char* ms = std::getenv("CUPROBE_PM_DECODE_MS"); ms && std::atoi(ms) > 0) {
    config.decode_period = std::chrono::milliseconds(std::atoi(ms));
  }
  return config;
}

}  // namespace

std::unique_ptr<DeviceSampler> open_device_sampler(const SamplerConfig& config) {
  return open_pm_sampler(make_cupti_backend(), with_tuning_overrides(config));
}

}  // namespace cuprobe
