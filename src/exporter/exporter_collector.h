// The exporter's state between scrapes: a thread that keeps counter sampling
// running (reopened with backoff when it fails or another profiler holds the
// counters), reads NVML's vital signs every second, and folds both into
// per-GPU windows; scrape() takes the means. NVML keeps flowing whatever the
// counters do, and the daemon starts without a GPU or driver.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "collect/counters/device_sampler.h"
#include "collect/device/nvml.h"
#include "collect/device/nvml_xid_watcher.h"
#include "exporter/exporter_snapshot.h"
#include "exporter/mean_window.h"

namespace cuprobe {

struct ExporterOptions {
  std::string source = "cupti";  // "cupti" or "dcgm", for the labels
  std::int64_t window_ns = 0;    // 0: means since the last scrape
  std::int64_t vitals_period_ns = 1'000'000'000;
  std::int64_t poll_period_ns = 100'000'000;
  std::int64_t retry_min_ns = 1'000'000'000, retry_max_ns = 60'000'000'000;
  std::string hostname, version;
  std::shared_ptr<const SeriesSelection> selection;  // -f/--collectors; null = every series
  bool driver_version_label = true;
  std::int64_t pods_period_ns = 10'000'000'000;
};

// GPU or MIG device UUID → the pod it is given to (the kubelet's pod-resources API); throws
// Error when the kubelet cannot be asked.
using PodLookup = std::function<PodOfDevice()>;

using SamplerOpener = std::function<std::unique_ptr<DeviceSampler>()>;  // throws Error when unavailable
using CounterGpuToNvml = std::function<int(int)>;                       // a counter row's gpu → NVML index

// The reason label for a counter failure: counter_status_name() of the refusal behind the
// message ("busy", "no_driver", ...), "dcgm_unreachable", "no_cupti" or "error".
std::string counter_unavailable_reason(const std::string& message);

class ExporterCollector {
 public:
  ExporterCollector(ExporterOptions options, SamplerOpener opener, CounterGpuToNvml to_nvml, const Nvml& nvml);
  ~ExporterCollector();
  ExporterCollector(const ExporterCollector&) = delete;
  ExporterCollector& operator=(const ExporterCollector&) = delete;

  // Pod labels from `lookup` (asked every pods_period_ns on a thread of its own); before start().
  void set_pod_lookup(PodLookup lookup) { pods_ = std::move(lookup); }
  void start();  // polls on its own thread every poll_period_ns; watches XIDs on another
  // Why XIDs are not watched ("" when they are), after start().
  const std::string& xid_status() const { return xid_status_; }
  void stop();
  // One step at `mono_ns` (CLOCK_MONOTONIC): (re)open or drain the counters, read NVML when due.
  void poll(std::int64_t mono_ns);
  // Asks the pod lookup when it is due (what the pods thread does).
  void poll_pods(std::int64_t mono_ns);
  ExporterSnapshot scrape();
  // For logs: the current counter state, one line.
  std::string counters_state() const;
  // Called from poll() with counters_state() whenever it changes (set before start()).
  void on_state_change(std::function<void(const std::string&)> log) { log_ = std::move(log); }

 private:
  struct Gpu {
    GpuLabels labels;
    std::unique_ptr<MeanWindow> counters, vitals;
    std::int64_t last_end_ns = 0;
    bool nvml_ok = false;
    bool sampled = false;       // the counter sampler covers this GPU
    std::vector<double> state;  // per state_columns_, the last read
    std::vector<GpuInstance> instances;
  };
  int nvml_index(int counter_gpu) const;
  Gpu& gpu_for(int nvml_index);
  void open_counters(std::int64_t mono_ns);
  void drain_counters(std::int64_t mono_ns);
  void counters_failed(const std::string& message, std::int64_t mono_ns);
  void read_vitals();
  void read_pods(std::int64_t mono_ns);
  void nap(std::int64_t ns) const;

  ExporterOptions options_;
  SamplerOpener opener_;
  CounterGpuToNvml to_nvml_;
  const Nvml& nvml_;
  std::vector<std::string> vital_columns_, state_columns_;
  std::string driver_version_;
  NvmlXidWatcher xids_;
  std::string xid_status_ = "not started";
  PodLookup pods_;
  std::int64_t next_pods_ns_ = 0;
  PodOfDevice pod_of_uuid_;                               // guarded by mutex_
  std::string pods_error_ = "not asked yet";              // guarded by mutex_
  std::int64_t pod_lookups_ = 0, pod_lookup_errors_ = 0;  // guarded by mutex_

  std::unique_ptr<DeviceSampler> sampler_;  // touched only by poll()
  std::int64_t next_open_ns_ = 0, backoff_ns_ = 0, next_vitals_ns_ = 0;
  std::int64_t lost_base_ = 0, restarts_base_ = 0;

  mutable std::mutex mutex_;  // everything below
  std::map<int, Gpu> gpus_;
  std::vector<std::string> counter_columns_;
  bool counters_ok_ = false;
  std::string reason_ = "starting", detail_;
  std::int64_t lost_ = 0, restarts_ = 0, open_attempts_ = 0, failures_ = 0;
  std::int64_t last_scrape_ns_ = 0;

  std::function<void(const std::string&)> log_;
  std::string logged_state_;

  std::atomic<bool> running_{false};
  std::thread thread_, pods_thread_;
};

}  // namespace cuprobe
