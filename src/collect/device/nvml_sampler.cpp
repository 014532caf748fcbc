#include "collect/device/nvml_sampler.h"

#include <cmath>
#include <map>

#include "collect/device/cuda_driver.h"

namespace cuprobe {
namespace {

class NvmlVitalsSampler final : public DeviceSampler {
 public:
  NvmlVitalsSampler(std::unique_ptr<DeviceSampler> inner, const Nvml& nvml, std::function<int(int)> nvml_index)
      : inner_(std::move(inner)), nvml_(nvml), nvml_index_(std::move(nvml_index)) {
    names_ = inner_->metric_names();
    for (const auto& c : nvml_vital_columns()) names_.push_back(c);
  }
  const std::vector<std::string>& metric_names() const override { return names_; }
  void start() override { inner_->start(); }
  void stop() override { inner_->stop(); }
  std::vector<CounterRow> drain() override {
    std::vector<CounterRow> rows = inner_->drain();
    std::map<int, std::vector<double>> read;
    for (auto& row : rows) {
      auto it = read.find(row.gpu);
      if (it == read.end()) it = read.emplace(row.gpu, read_vitals(row.gpu)).first;
      row.values.resize(inner_->metric_names().size(), NAN);
      row.values.insert(row.values.end(), it->second.begin(), it->second.end());
    }
    return rows;
  }
  std::int64_t lost_samples() const override { return inner_->lost_samples(); }
  int restarts() const override { return inner_->restarts(); }
  std::vector<int> gpus() const override { return inner_->gpus(); }
  std::vector<std::string> chips() const override { return inner_->chips(); }
  std::vector<std::string> skipped_metrics() const override { return inner_->skipped_metrics(); }
  std::vector<std::string> raw_metric_names() const override {
    std::vector<std::string> raw = inner_->raw_metric_names();
    for (const auto& c : nvml_vital_columns()) raw.push_back("nvml:" + c);
    return raw;
  }

 private:
  std::vector<double> read_vitals(int gpu) {
    NvmlVitals v;
    if (nvml_.ok()) {
      auto idx = index_cache_.find(gpu);
      if (idx == index_cache_.end()) idx = index_cache_.emplace(gpu, nvml_index_(gpu)).first;
      if (idx->second >= 0) nvml_.vitals(idx->second, v);
    }
    return nvml_vital_values(v);
  }

  std::unique_ptr<DeviceSampler> inner_;
  const Nvml& nvml_;
  std::function<int(int)> nvml_index_;
  std::vector<std::string> names_;
  std::map<int, int> index_cache_;
};

}  // namespace

const std::vector<std::string>& nvml_vital_columns() {
  static const std::vector<std::string> columns = {
      "power_w",           "sm_clock_mhz", "mem_clock_mhz",      "temperature_c",
      "memory_used_bytes", "gpu_util_pct", "clock_event_reasons"};
  return columns;
}

std::vector<double> nvml_vital_values(const NvmlVitals& v) {
  return {v.power_w,           v.sm_clock_mhz,        v.memory_clock_mhz,   v.temperature_c,
          v.memory_used_bytes, v.gpu_utilization_pct, v.clock_event_reasons};
}

int nvml_index_of_cuda_ordinal(const Nvml& nvml, int ordinal) {
  CudaDriver& driver = CudaDriver::instance();
  if (driver.init_result() != 0) return ordinal;
  std::string bus = driver.pci_bus_id(ordinal);
  if (bus.empty()) return ordinal;
  return nvml.index_of_pci_bus_id(bus);
}

std::unique_ptr<DeviceSampler> with_nvml_vitals(std::unique_ptr<DeviceSampler> inner, const Nvml& nvml,
                                                std::function<int(int)> nvml_index) {
  if (!nvml_index) nvml_index = [&nvml](int ordinal) { return nvml_index_of_cuda_ordinal(nvml, ordinal); };
  return std::make_unique<NvmlVitalsSampler>(std::move(inner), nvml, std::move(nvml_index));
}

}  // namespace cuprobe
