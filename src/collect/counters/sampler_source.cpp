#include "collect/counters/sampler_source.h"

#include <cstdlib>

#include "collect/counters/dcgm_sampler.h"
#include "collect/counters/pm_device_sampler.h"
#include "collect/counters/synthetic_pm_backend.h"
#include "collect/device/nvml_sampler.h"
#include "common/error.h"

namespace cuprobe {
namespace {

bool synthetic_backend_requested() {
  const char* v = std::getenv("CUPROBE_TEST_PM_BACKEND");
  return v && std::string_view(v) == "synthetic";
}

}  // namespace

CounterSource parse_counter_source(std::string_view text) {
  CounterSource s;
  s.text = std::string(text);
  if (text == "cupti") return s;
  if (text.substr(0, 5) == "dcgm=" && text.size() > 5) {
    s.dcgm = true;
    s.dcgm_url = parse_http_url(text.substr(5));
    return s;
  }
  throw Error("--source " + std::string(text) + ": use cupti or dcgm=URL (a dcgm-exporter, e.g. dcgm=localhost:9400)",
              kExitUsage);
}

std::unique_ptr<DeviceSampler> open_counter_sampler(const SamplerConfig& config, const CounterSource& source,
                                                    bool vitals) {
  std::unique_ptr<DeviceSampler> sampler;
  if (source.dcgm) {
    sampler = open_dcgm_sampler(source.dcgm_url, config);
  } else if (synthetic_backend_requested()) {
    sampler = open_pm_sampler(make_synthetic_pm_backend(), config);
  } else {
    sampler = open_device_sampler(config);
  }
  if (!vitals) return sampler;
  return with_nvml_vitals(std::move(sampler), Nvml::instance(),
                          [source](int gpu) { return nvml_index_of_counter_gpu(source, gpu); });
}

int nvml_index_of_counter_gpu(const CounterSource& source, int gpu) {
  return source.dcgm ? gpu : nvml_index_of_cuda_ordinal(Nvml::instance(), gpu);
}

}  // namespace cuprobe
