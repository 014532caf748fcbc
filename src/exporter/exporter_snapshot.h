// What one scrape of `cuprobe exporter` reports: per GPU, the means over the
// window of the PM counters and of NVML's vital signs, and whether each source
// could be read (and why not). Filled by exporter_collector, rendered by
// exporter_metrics.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collect/device/nvml_mig.h"
#include "exporter/collectors_file.h"

namespace cuprobe {

// The Kubernetes pod a GPU (or GPU instance) is given to, from the kubelet's pod-resources API.
struct PodRef {
  std::string pod, pod_namespace, container;
  bool empty() const { return pod.empty(); }
};

// Device UUID → the pod (and container) it is given to. Each pod's labels are held once and
// shared by its devices (issue 39: a copy per device made a 2 MB kubelet reply cost gigabytes).
using PodOfDevice = std::map<std::string, std::shared_ptr<const PodRef>>;

// A MIG GPU instance: its series carry GPU_I_ID and GPU_I_PROFILE; its memory is its own.
struct InstanceValues {
  GpuInstance instance;
  PodRef pod;
};

struct GpuLabels {
  int gpu = -1;            // NVML's index (what dcgm-exporter's gpu label says)
  std::string uuid;        // "GPU-..."
  std::string pci_bus_id;  // as NVML spells it, "00000000:18:00.0"
  std::string device;      // "nvidia0"
  std::string model;       // "NVIDIA H200"
  PodRef pod;              // empty: no pod labels
};

struct GpuWindowValues {
  GpuLabels labels;
  bool counters = false;                // counters are sampled on this GPU: the means below are meaningful
  std::string counters_reason;          // "ok", "not_sampled" (not asked for), or the source's failure
  std::vector<double> counter_means;    // per ExporterSnapshot::counter_columns; NaN = not read
  std::int64_t counter_rows = 0;        // samples behind the means
  std::int64_t last_sample_end_ns = 0;  // CLOCK_REALTIME end of the newest counter sample; 0 = none yet
  bool vitals = false;
  std::vector<double> vital_means;        // per vital_columns (reason columns are the fraction of reads with the bit)
  std::vector<double> state_values;       // per state_columns: the last read; NaN = not read
  std::vector<InstanceValues> instances;  // MIG on: one per GPU instance
};

struct ExporterSnapshot {
  std::string hostname;
  std::string version;
  std::int64_t now_ns = 0;    // CLOCK_REALTIME of the scrape
  double window_seconds = 0;  // how much time the means cover (since the last scrape, or --window)
  std::vector<std::string> counter_columns;
  std::vector<std::string> vital_columns;  // exporter_collector's: the NVML vitals, then one per clock event reason
  std::vector<std::string> state_columns;  // the table's kState columns (energy, XID, remapped rows, ...)
  std::string driver_version;              // the DCGM_FI_DRIVER_VERSION label ("" = none)
  std::shared_ptr<const SeriesSelection> selection;  // -f/--collectors; null = every series
  std::vector<GpuWindowValues> gpus;
  std::string source;  // "cupti" or "dcgm"
  bool counters_available = false;
  std::string counters_reason;  // "ok", "busy", "no_driver", "insufficient_privileges", "dcgm_unreachable", ...
  std::string counters_detail;  // the one-line message
  bool nvml_available = false;
  std::string nvml_reason;  // "ok" or "unavailable"
  std::int64_t lost_samples = 0, restarts = 0, open_attempts = 0, counter_failures = 0;
  bool pods_enabled = false;    // pod labels asked for (--kubernetes)
  bool pods_available = false;  // the last ask of the kubelet answered
  std::int64_t pod_lookups = 0, pod_lookup_errors = 0;
};

}  // namespace cuprobe
