#include "exporter/exporter_collector.h"

#include <algorithm>
#include <cmath>

#include "collect/counters/counter_columns.h"
#include "collect/counters/pm_backend.h"
#include "collect/device/nvml_health.h"
#include "collect/device/nvml_sampler.h"
#include "common/clock.h"
#include "common/error.h"

namespace cuprobe {
namespace {

constexpr const char* kReasonPrefix = "clock_event_reason:";

// The NVML columns the windows hold: the table's vitals as read, except the bitmask, which
// becomes one 0/1 column per reason (so that its mean is the fraction of reads with the bit set).
std::vector<std::string> make_vital_columns() {
  std::vector<std::string> columns;
  for (const CounterColumn& c : kCounterColumns) {
    if (c.source == ColumnSource::kVital && c.name != "clock_event_reasons") columns.emplace_back(c.name);
  }
  for (const auto& r : clock_event_reasons()) columns.push_back(std::string(kReasonPrefix) + r.name);
  return columns;
}

std::vector<std::string> make_state_columns() {
  std::vector<std::string> columns;
  for (const CounterColumn& c : kCounterColumns) {
    if (c.source == ColumnSource::kState) columns.emplace_back(c.name);
  }
  return columns;
}

std::vector<double> vital_row(const NvmlVitals& v, const NvmlHealth& h) {
  std::vector<double> row;
  const auto& names = nvml_vital_columns();
  std::vector<double> values = nvml_vital_values(v);
  for (const CounterColumn& c : kCounterColumns) {
    if (c.source != ColumnSource::kVital || c.name == "clock_event_reasons") continue;
    auto at = std::find(names.begin(), names.end(), c.name);
    row.push_back(at != names.end() ? values[at - names.begin()] : nvml_health_value(h, std::string(c.name)));
  }
  for (const auto& r : clock_event_reasons()) {
    row.push_back(std::isnan(v.clock_event_reasons)
                      ? NAN
                      : ((static_cast<unsigned long long>(v.clock_event_reasons) & r.bit) ? 1.0 : 0.0));
  }
  return row;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

std::string counter_unavailable_reason(const std::string& m) {
  if (contains(m, "dcgm-exporter at")) return "dcgm_unreachable";
  if (contains(m, "built without CUPTI")) return "no_cupti";
  if (contains(m, "no NVIDIA driver")) return counter_status_name(CounterStatus::kNoDriver);
  if (contains(m, "no CUDA GPU visible")) return counter_status_name(CounterStatus::kNoGpu);
  if (contains(m, "restricted to admin users")) return counter_status_name(CounterStatus::kInsufficientPrivileges);
  if (contains(m, "held by another profiler")) return counter_status_name(CounterStatus::kBusy);
  if (contains(m, "does not support PM sampling")) return counter_status_name(CounterStatus::kUnsupportedDevice);
  if (contains(m, "chip not supported")) return counter_status_name(CounterStatus::kUnsupportedChip);
  if (contains(m, "invalid metric")) return counter_status_name(CounterStatus::kInvalidMetric);
  if (contains(m, "one PM sampling pass")) return counter_status_name(CounterStatus::kTooManyMetrics);
  if (contains(m, "buffer overflowed")) return counter_status_name(CounterStatus::kOverflow);
  if (contains(m, "counters could not be read")) return counter_status_name(CounterStatus::kOther);
  return "error";
}

ExporterCollector::ExporterCollector(ExporterOptions options, SamplerOpener opener, CounterGpuToNvml to_nvml,
                                     const Nvml& nvml)
    : options_(std::move(options)),
      opener_(std::move(opener)),
      to_nvml_(std::move(to_nvml)),
      nvml_(nvml),
      vital_columns_(make_vital_columns()),
      state_columns_(make_state_columns()),
      xids_(nvml) {
  backoff_ns_ = options_.retry_min_ns;
  if (options_.driver_version_label && nvml_.ok()) driver_version_ = nvml_.driver_version();
  std::lock_guard<std::mutex> lock(mutex_);
  int n = nvml_.ok() ? nvml_.device_count() : 0;
  for (int i = 0; i < n; ++i) {
    Gpu& g = gpu_for(i);
    NvmlDeviceInfo info;
    if (nvml_.device(i, info)) {
      g.labels.uuid = info.uuid;
      g.labels.pci_bus_id = info.nvml_pci_bus_id;
      g.labels.model = info.name;
    }
  }
}

ExporterCollector::~ExporterCollector() { stop(); }

ExporterCollector::Gpu& ExporterCollector::gpu_for(int index) {
  auto it = gpus_.find(index);
  if (it != gpus_.end()) return it->second;
  Gpu& g = gpus_[index];
  g.labels.gpu = index;
  g.labels.device = "nvidia" + std::to_string(index);
  g.vitals = std::make_unique<MeanWindow>(vital_columns_.size(), options_.window_ns);
  g.counters = std::make_unique<MeanWindow>(counter_columns_.size(), options_.window_ns);
  return g;
}

int ExporterCollector::nvml_index(int counter_gpu) const {
  int index = to_nvml_(counter_gpu);
  return index >= 0 ? index : counter_gpu;  // NVML does not know the device: keep the counters' number
}

// Short naps until `ns` passed or stop(): stop() is heard within 20 ms.
void ExporterCollector::nap(std::int64_t ns) const {
  while (ns > 0 && running_.load()) {
    std::int64_t step = std::min<std::int64_t>(ns, 20'000'000);
    timespec ts{0, static_cast<long>(step)};
    nanosleep(&ts, nullptr);
    ns -= step;
  }
}

void ExporterCollector::start() {
  if (running_.exchange(true)) return;
  xid_status_ = xids_.start();
  thread_ = std::thread([this] {
    while (running_.load()) {
      poll(mono_ns());
      nap(options_.poll_period_ns);
    }
  });
  if (!pods_) return;
  // The kubelet is asked on a thread of its own: a slow or stuck one (up to the lookup's own
  // deadline) never delays the counters or the vitals.
  pods_thread_ = std::thread([this] {
    while (running_.load()) {
      poll_pods(mono_ns());
      nap(std::max<std::int64_t>(next_pods_ns_ - mono_ns(), 20'000'000));
    }
  });
}

void ExporterCollector::stop() {
  running_ = false;
  if (thread_.joinable()) thread_.join();
  if (pods_thread_.joinable()) pods_thread_.join();
  xids_.stop();
  if (sampler_) {
    try {
      sampler_->stop();
    } catch (const Error&) {
      // Shutting down: nothing left to report it to.
    }
    sampler_.reset();
  }
}

void ExporterCollector::poll(std::int64_t mono_ns) {
  if (!sampler_ && mono_ns >= next_open_ns_) open_counters(mono_ns);
  if (sampler_) drain_counters(mono_ns);
  if (log_) {
    std::string state = counters_state();
    if (state != logged_state_) log_(logged_state_ = state);
  }
  if (mono_ns >= next_vitals_ns_) {
    read_vitals();
    next_vitals_ns_ = mono_ns + options_.vitals_period_ns;
  }
}

void ExporterCollector::poll_pods(std::int64_t mono_ns) {
  if (pods_ && mono_ns >= next_pods_ns_) read_pods(mono_ns);
}

void ExporterCollector::read_pods(std::int64_t mono_ns) {
  next_pods_ns_ = mono_ns + options_.pods_period_ns;
  PodOfDevice pods;
  std::string error;
  try {
    pods = pods_();
  } catch (const Error& e) {
    error = e.what();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (error.empty()) pod_of_uuid_ = std::move(pods);  // on failure the last mapping stands
  ++pod_lookups_;
  if (!error.empty()) ++pod_lookup_errors_;
  if (error != pods_error_ && log_) {
    log_(error.empty() ? "kubernetes: pod-resources answered (" + std::to_string(pod_of_uuid_.size()) +
                             " GPU device(s) held by pods)"
                       : "kubernetes: " + error + " (asked again every " +
                             std::to_string(options_.pods_period_ns / 1'000'000'000) + "s; pod labels wait for it)");
  }
  pods_error_ = error;
}

void ExporterCollector::open_counters(std::int64_t mono_ns) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++open_attempts_;
  }
  try {
    std::unique_ptr<DeviceSampler> s = opener_();
    s->start();
    sampler_ = std::move(s);
  } catch (const Error& e) {
    counters_failed(e.what(), mono_ns);
    return;
  }
  backoff_ns_ = options_.retry_min_ns;
  std::lock_guard<std::mutex> lock(mutex_);
  if (counter_columns_ != sampler_->metric_names()) {
    counter_columns_ = sampler_->metric_names();
    for (auto& [i, g] : gpus_) g.counters = std::make_unique<MeanWindow>(counter_columns_.size(), options_.window_ns);
  }
  for (int ordinal : sampler_->gpus()) {
    Gpu& g = gpu_for(nvml_index(ordinal));
    g.counters->clear();
    g.sampled = true;
  }
  counters_ok_ = true;
  reason_ = "ok";
  detail_.clear();
}

void ExporterCollector::drain_counters(std::int64_t mono_ns) {
  std::vector<CounterRow> rows;
  try {
    rows = sampler_->drain();
  } catch (const Error& e) {
    counters_failed(e.what(), mono_ns);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& r : rows) {
    Gpu& g = gpu_for(nvml_index(r.gpu));
    g.counters->add(r.end_ns, r.values);
    g.last_end_ns = std::max(g.last_end_ns, r.end_ns);
  }
  lost_ = lost_base_ + sampler_->lost_samples();
  restarts_ = restarts_base_ + sampler_->restarts();
}

void ExporterCollector::counters_failed(const std::string& message, std::int64_t mono_ns) {
  if (sampler_) {
    lost_base_ += sampler_->lost_samples();
    restarts_base_ += sampler_->restarts();
    try {
      sampler_->stop();
    } catch (const Error&) {
      // Already failed: the first error is the one reported.
    }
    sampler_.reset();
  }
  next_open_ns_ = mono_ns + backoff_ns_;
  backoff_ns_ = std::min(backoff_ns_ * 2, options_.retry_max_ns);
  std::lock_guard<std::mutex> lock(mutex_);
  if (counters_ok_) ++failures_;
  counters_ok_ = false;
  reason_ = counter_unavailable_reason(message);
  detail_ = message;
  for (auto& [i, g] : gpus_) {
    g.counters->clear();
    g.last_end_ns = 0;
    g.sampled = false;
  }
}

void ExporterCollector::read_vitals() {
  if (!nvml_.ok()) return;
  int n = nvml_.device_count();
  struct Read {
    bool ok = false;
    std::vector<double> vitals, state;
    std::vector<GpuInstance> instances;
  };
  std::vector<Read> reads(static_cast<std::size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) {
    NvmlVitals v;
    NvmlHealth h;
    Read& r = reads[i];
    r.ok = nvml_.vitals(i, v);
    read_nvml_health(nvml_, i, h);
    r.vitals = vital_row(v, h);
    XidState xid;
    bool watched = xids_.state(i, xid);
    for (const auto& c : state_columns_) {
      r.state.push_back(c == "xid_last"     ? (watched ? xid.last : NAN)
                        : c == "xid_errors" ? (watched ? xid.count : NAN)
                                            : nvml_health_value(h, c));
    }
    r.instances = nvml_gpu_instances(nvml_, i);
  }
  std::int64_t now = realtime_ns();
  std::lock_guard<std::mutex> lock(mutex_);
  for (int i = 0; i < n; ++i) {
    Gpu& g = gpu_for(i);
    g.nvml_ok = reads[i].ok;
    if (g.nvml_ok) g.vitals->add(now, reads[i].vitals);
    g.state = g.nvml_ok ? std::move(reads[i].state) : std::vector<double>{};
    g.instances = std::move(reads[i].instances);
  }
}

ExporterSnapshot ExporterCollector::scrape() {
  ExporterSnapshot s;
  s.now_ns = realtime_ns();
  s.hostname = options_.hostname;
  s.version = options_.version;
  s.source = options_.source;
  s.vital_columns = vital_columns_;
  s.state_columns = state_columns_;
  s.driver_version = driver_version_;
  s.selection = options_.selection;
  s.nvml_available = nvml_.ok();
  s.nvml_reason = nvml_.ok() ? "ok" : "unavailable";
  std::lock_guard<std::mutex> lock(mutex_);
  s.counter_columns = counter_columns_;
  s.counters_available = counters_ok_;
  s.counters_reason = reason_;
  s.counters_detail = detail_;
  s.lost_samples = lost_;
  s.restarts = restarts_;
  s.open_attempts = open_attempts_;
  s.counter_failures = failures_;
  s.pods_enabled = static_cast<bool>(pods_);
  s.pods_available = s.pods_enabled && pod_lookups_ > 0 && pods_error_.empty();
  s.pod_lookups = pod_lookups_;
  s.pod_lookup_errors = pod_lookup_errors_;
  s.window_seconds = options_.window_ns > 0 ? options_.window_ns / 1e9
                     : last_scrape_ns_ > 0  ? (s.now_ns - last_scrape_ns_) / 1e9
                                            : 0;
  last_scrape_ns_ = s.now_ns;
  for (auto& [i, g] : gpus_) {
    GpuWindowValues w;
    w.labels = g.labels;
    w.counter_means = g.counters->take(s.now_ns);
    w.counter_rows = g.counters->rows_taken();
    w.counters = counters_ok_ && g.sampled;
    w.counters_reason = !counters_ok_ ? reason_ : g.sampled ? "ok" : "not_sampled";
    w.last_sample_end_ns = g.last_end_ns;
    w.vital_means = g.vitals->take(s.now_ns);
    w.vitals = g.nvml_ok;
    w.state_values = g.state;
    auto pod = pod_of_uuid_.find(g.labels.uuid);
    if (pod != pod_of_uuid_.end()) w.labels.pod = *pod->second;
    for (const auto& gi : g.instances) {
      auto p = pod_of_uuid_.find(gi.uuid);
      w.instances.push_back({gi, p != pod_of_uuid_.end() ? *p->second : PodRef{}});
    }
    s.gpus.push_back(std::move(w));
  }
  return s;
}

std::string ExporterCollector::counters_state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counters_ok_ ? "counters: sampling (" + options_.source + ")"
                      : "counters: unavailable (" + reason_ + ")" + (detail_.empty() ? "" : ": " + detail_);
}

}  // namespace cuprobe
