#include "exporter/exporter_metrics.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "collect/counters/counter_columns.h"
#include "collect/device/nvml.h"
#include "common/prometheus_text.h"
#include "exporter/collectors_file.h"
#include "exporter/xid_messages.h"
#include "report/sample_format.h"

namespace cuprobe {
namespace {

struct Family {
  std::string name, type, help;
  std::vector<std::string> samples;  // "{labels} value"
};

class Page {
 public:
  Family& family(const std::string& name, const char* type, const std::string& help) {
    auto it = index_.find(name);
    if (it != index_.end()) return families_[it->second];
    index_[name] = families_.size();
    families_.push_back({name, type, help, {}});
    return families_.back();
  }
  void add(const std::string& name, const char* type, const std::string& help, const std::string& labels,
           double value) {
    std::string v = std::isnan(value)   ? "NaN"
                    : std::isinf(value) ? (value > 0 ? "+Inf" : "-Inf")
                                        : format_sample_value(value);
    family(name, type, help).samples.push_back("{" + labels + "} " + v);
  }
  std::string render(bool openmetrics) const {
    std::string out;
    for (const auto& f : families_) {
      bool counter = f.type == "counter";
      bool total = f.name.ends_with("_total");
      // Counters are named ..._total; OpenMetrics names the family without the suffix. DCGM's
      // counters have no suffix (dcgm-exporter's names): OpenMetrics gets them as `unknown`.
      std::string family_name = counter && openmetrics && total ? f.name.substr(0, f.name.size() - 6) : f.name;
      std::string type = counter && openmetrics && !total ? "unknown" : f.type;
      out += "# HELP " + family_name + " " + f.help + "\n";
      out += "# TYPE " + family_name + " " + type + "\n";
      for (const auto& s : f.samples) out += f.name + s + "\n";
    }
    if (openmetrics) out += "# EOF\n";
    return out;
  }

 private:
  std::vector<Family> families_;
  std::map<std::string, std::size_t> index_;
};

std::string label(const char* key, const std::string& value) {
  return std::string(key) + "=\"" + escape_prometheus_label(value) + "\"";
}

std::string pod_labels(const PodRef& p) {
  if (p.empty()) return "";
  return "," + label("container", p.container) + "," + label("namespace", p.pod_namespace) + "," + label("pod", p.pod);
}

std::string gpu_labels(const GpuLabels& g, const ExporterSnapshot& s) {
  std::string out = label("gpu", std::to_string(g.gpu)) + "," + label("UUID", g.uuid) + "," +
                    label("pci_bus_id", g.pci_bus_id) + "," + label("device", g.device) + "," +
                    label("modelName", g.model) + "," + label("Hostname", s.hostname);
  if (!s.driver_version.empty() && (!s.selection || s.selection->driver_version_label())) {
    out += "," + label(kDriverVersionLabel, s.driver_version);
  }
  return out;
}

// Where a GPU's DCGM-named series go: the GPU itself (instance null), and under MIG each GPU instance.
struct Target {
  std::string labels;
  const GpuInstance* instance = nullptr;
};

std::vector<Target> targets(const ExporterSnapshot& s, const GpuWindowValues& g) {
  std::string base = gpu_labels(g.labels, s);
  std::vector<Target> out{{base + pod_labels(g.labels.pod), nullptr}};
  for (const auto& i : g.instances) {
    out.push_back({base + "," + label("GPU_I_PROFILE", i.instance.profile) + "," +
                       label("GPU_I_ID", std::to_string(i.instance.id)) + pod_labels(i.pod),
                   &i.instance});
  }
  return out;
}

// The columns NVML gives per MIG GPU instance: its own memory. No other reading is per instance (power, clocks,
// temperature, utilization, PM counters, XID are the whole GPU's).
bool per_instance(std::string_view column) {
  return column == "memory_used_bytes" || column == "memory_free_bytes" || column == "memory_reserved_bytes";
}

double instance_value(const GpuInstance& i, std::string_view column) {
  if (column == "memory_used_bytes") return i.memory_used_bytes;
  if (column == "memory_free_bytes") return i.memory_free_bytes;
  if (column == "memory_reserved_bytes") return i.memory_reserved_bytes;
  return NAN;
}

bool wanted(const ExporterSnapshot& s, std::string_view series) { return !s.selection || s.selection->wants(series); }

// One table column's series; NaN values are left out. Under MIG a per-instance column goes on each instance (and
// not on the GPU, whose total would count twice in a sum); any other column once, on the GPU without instance
// labels: never the whole GPU's value repeated per instance, which a dashboard summing instances would multiply.
void add_column(Page& page, const ExporterSnapshot& s, const std::vector<Target>& ts, const CounterColumn& c,
                double value, const std::string& extra = "") {
  if (!wanted(s, c.series)) return;
  const char* type = c.series_type == "counter" ? "counter" : "gauge";
  const bool mig = ts.size() > 1;
  for (const Target& t : ts) {
    double v = value;
    if (mig && per_instance(c.name) != (t.instance != nullptr)) continue;
    if (t.instance) v = instance_value(*t.instance, c.name);
    if (std::isnan(v)) continue;
    page.add(std::string(c.series), type, std::string(c.series_help), t.labels + extra, v * c.series_scale);
  }
}

int column_index(const std::vector<std::string>& columns, const std::string& name) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return static_cast<int>(i);
  }
  return -1;
}

void add_counters(Page& page, const ExporterSnapshot& s, const GpuWindowValues& g, const std::string& labels) {
  std::vector<Target> ts = targets(s, g);
  for (std::size_t i = 0; i < s.counter_columns.size() && i < g.counter_means.size(); ++i) {
    double v = g.counter_means[i];
    if (std::isnan(v)) continue;
    const CounterColumn* known = find_counter_column(s.counter_columns[i], ColumnSource::kCounter);
    if (!known) {
      page.add("cuprobe_pm_metric", "gauge", "A PM sampling metric given with --metrics, by its CUPTI name.",
               labels + "," + label("metric", s.counter_columns[i]), v);
      continue;
    }
    if (known->series.starts_with("DCGM_")) {
      add_column(page, s, ts, *known, v);
      continue;
    }
    std::string l = known->pipe.empty() ? labels : labels + "," + label("pipe", std::string(known->pipe));
    page.add(std::string(known->series), "gauge", std::string(known->series_help), l, v * known->series_scale);
  }
  if (g.last_sample_end_ns > 0) {
    page.add("cuprobe_sample_age_seconds", "gauge",
             "Seconds between the end of the newest counter sample and this scrape.", labels,
             (s.now_ns - g.last_sample_end_ns) / 1e9);
  }
  page.add("cuprobe_window_samples", "gauge", "Counter samples behind this scrape's means.", labels,
           static_cast<double>(g.counter_rows));
}

void add_vitals(Page& page, const ExporterSnapshot& s, const GpuWindowValues& g, const std::string& labels) {
  std::vector<Target> ts = targets(s, g);
  for (const CounterColumn& v : kCounterColumns) {
    // The bitmask is rendered from the reasons the windows hold one by one (below).
    if (v.source != ColumnSource::kVital || v.name == "clock_event_reasons") continue;
    int i = column_index(s.vital_columns, std::string(v.name));
    double mean = i < 0 || i >= static_cast<int>(g.vital_means.size()) ? NAN : g.vital_means[i];
    add_column(page, s, ts, v, mean);
  }
  std::uint64_t mask = 0;
  bool any = false;
  for (const auto& r : clock_event_reasons()) {
    int i = column_index(s.vital_columns, std::string("clock_event_reason:") + r.name);
    if (i < 0 || i >= static_cast<int>(g.vital_means.size()) || std::isnan(g.vital_means[i])) continue;
    any = true;
    if (g.vital_means[i] > 0) mask |= r.bit;
    page.add("cuprobe_clock_event_reason_active", "gauge",
             "Fraction of NVML reads in the window with this clock event (throttle) reason set.",
             labels + "," + label("reason", r.name), g.vital_means[i]);
  }
  const CounterColumn* reasons = find_counter_column("clock_event_reasons", ColumnSource::kVital);
  if (any && reasons) add_column(page, s, ts, *reasons, static_cast<double>(mask));
}

void add_state(Page& page, const ExporterSnapshot& s, const GpuWindowValues& g) {
  std::vector<Target> ts = targets(s, g);
  for (const CounterColumn& c : kCounterColumns) {
    if (c.source != ColumnSource::kState) continue;
    int i = column_index(s.state_columns, std::string(c.name));
    double v = i < 0 || i >= static_cast<int>(g.state_values.size()) ? NAN : g.state_values[i];
    // dcgm-exporter labels the last XID with its code and the catalog's message (err_code, err_msg).
    std::string extra;
    if (c.name == "xid_last" && !std::isnan(v)) {
      auto code = static_cast<long long>(v);
      extra = "," + label("err_code", std::to_string(code)) + "," + label("err_msg", std::string(xid_message(code)));
    }
    add_column(page, s, ts, c, v, extra);
  }
}

// --kubernetes: how asking the kubelet for pods goes (the pod labels stand on it).
void add_pod_lookup(Page& page, const ExporterSnapshot& s, const std::string& host) {
  page.add("cuprobe_pod_resources_available", "gauge",
           "1 when the kubelet's pod-resources API answered the last ask (pod labels are current); 0 otherwise.", host,
           s.pods_available ? 1 : 0);
  page.add("cuprobe_pod_lookups_total", "counter", "Times the exporter asked the kubelet which pod holds which GPU.",
           host, static_cast<double>(s.pod_lookups));
  page.add("cuprobe_pod_lookup_errors_total", "counter",
           "Times the kubelet's pod-resources API could not be asked or answered with an error (the last pod "
           "labels stand).",
           host, static_cast<double>(s.pod_lookup_errors));
}

}  // namespace

std::string render_exporter_metrics(const ExporterSnapshot& s, bool openmetrics) {
  Page page;
  std::string host = label("Hostname", s.hostname);
  page.add("cuprobe_exporter_info", "gauge", "cuprobe exporter build and counter source.",
           label("version", s.version) + "," + label("source", s.source) + "," + host, 1);
  page.add("cuprobe_gpus", "gauge", "GPUs this exporter reports on.", host, static_cast<double>(s.gpus.size()));
  page.add("cuprobe_nvml_available", "gauge",
           "1 when NVML (power, clocks, temperature, memory) can be read; 0 with the reason.",
           label("reason", s.nvml_reason) + "," + host, s.nvml_available ? 1 : 0);
  const char* avail_help =
      "1 when the GPU's hardware counters are being sampled; 0 with the reason (another profiler holds them, no "
      "driver, ...): their series are then left out.";
  if (s.gpus.empty()) {
    page.add("cuprobe_counters_available", "gauge", avail_help,
             label("source", s.source) + "," + label("reason", s.counters_reason) + "," + host, 0);
  }
  for (const auto& g : s.gpus) {
    page.add("cuprobe_counters_available", "gauge", avail_help,
             gpu_labels(g.labels, s) + "," + label("source", s.source) + "," + label("reason", g.counters_reason),
             s.counters_available && g.counters ? 1 : 0);
  }
  page.add("cuprobe_window_seconds", "gauge", "Seconds the means of this scrape cover.", host, s.window_seconds);
  page.add("cuprobe_lost_samples_total", "counter",
           "Counter samples lost (hardware buffer overflow, stalls) since the exporter started.", host,
           static_cast<double>(s.lost_samples));
  page.add("cuprobe_sampler_restarts_total", "counter", "Times a stalled GPU's counter sampling was restarted.", host,
           static_cast<double>(s.restarts));
  page.add("cuprobe_sampling_start_attempts_total", "counter",
           "Times the exporter tried to start counter sampling (retried with backoff while unavailable).", host,
           static_cast<double>(s.open_attempts));
  page.add("cuprobe_sampling_failures_total", "counter", "Times counter sampling stopped with an error.", host,
           static_cast<double>(s.counter_failures));
  if (s.pods_enabled) add_pod_lookup(page, s, host);
  for (const auto& g : s.gpus) {
    std::string labels = gpu_labels(g.labels, s);
    if (s.counters_available && g.counters) add_counters(page, s, g, labels);
    if (g.vitals) add_vitals(page, s, g, labels);
    add_state(page, s, g);
  }
  return page.render(openmetrics);
}

bool accepts_openmetrics(std::string_view accept) {
  return accept.find("application/openmetrics-text") != std::string_view::npos;
}

const char* exporter_content_type(bool openmetrics) {
  return openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                     : "text/plain; version=0.0.4; charset=utf-8";
}

}  // namespace cuprobe
