#include <cupti.h>
#include <cupti_profiler_host.h>

#include <algorithm>

#include "collect/counters/cupti/cupti_status.h"
#include "collect/counters/cupti/nvperf_host.h"
#include "collect/counters/metric_catalog.h"
#include "common/error.h"

namespace cuprobe {
namespace {

#define CUPROBE_PARAMS(type, name) \
  type name { type##_STRUCT_SIZE }

// A host object for one chip, released on scope exit.
class HostObject {
 public:
  explicit HostObject(const std::string& chip) {
    load_nvperf_host();
    CUPROBE_PARAMS(CUpti_Profiler_Host_Initialize_Params, p);
    p.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    p.pChipName = chip.c_str();
    status_ = classify_cupti_result(cuptiProfilerHostInitialize(&p), "cuptiProfilerHostInitialize");
    host_ = p.pHostObject;
  }
  ~HostObject() {
    if (!host_) return;
    CUPROBE_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, p);
    p.pHostObject = host_;
    cuptiProfilerHostDeinitialize(&p);
  }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;
  const BackendStatus& status() const { return status_; }
  CUpti_Profiler_Host_Object* get() const { return host_; }

 private:
  BackendStatus status_;
  CUpti_Profiler_Host_Object* host_ = nullptr;
};

void require_chip(const HostObject& host, const std::string& chip) {
  if (host.status().ok()) return;
  std::string known;
  try {
    for (const auto& c : catalog_supported_chips()) known += (known.empty() ? "" : " ") + c;
  } catch (const Error&) {
  }
  throw Error("unknown chip '" + chip + "' (" + host.status().detail + "); this CUPTI knows: " + known, kExitUsage);
}

const char* type_name(CUpti_MetricType t) {
  switch (t) {
    case CUPTI_METRIC_TYPE_COUNTER:
      return "counter";
    case CUPTI_METRIC_TYPE_RATIO:
      return "ratio";
    case CUPTI_METRIC_TYPE_THROUGHPUT:
      return "throughput";
    default:
      return "unknown";
  }
}

}  // namespace

std::vector<std::string> catalog_supported_chips() {
  CUPROBE_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params, p);
  BackendStatus st =
      classify_cupti_result(cuptiProfilerHostGetSupportedChips(&p), "cuptiProfilerHostGetSupportedChips");
  if (!st.ok()) throw Error(st.detail, kExitFailed);
  std::vector<std::string> chips;
  for (std::size_t i = 0; i < p.numChips; ++i) chips.emplace_back(p.ppChipNames[i]);
  return chips;
}

std::vector<MetricInfo> list_chip_metrics(const std::string& chip) {
  HostObject host(chip);
  require_chip(host, chip);
  std::vector<MetricInfo> out;
  for (int t = 0; t < CUPTI_METRIC_TYPE__COUNT; ++t) {
    CUPROBE_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params, p);
    p.pHostObject = host.get();
    p.metricType = static_cast<CUpti_MetricType>(t);
    if (cuptiProfilerHostGetBaseMetrics(&p) != CUPTI_SUCCESS) continue;
    for (std::size_t i = 0; i < p.numMetrics; ++i) {
      MetricInfo m;
      m.name = p.ppMetricNames[i];
      m.type = type_name(static_cast<CUpti_MetricType>(t));
      CUPROBE_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, prop);
      prop.pHostObject = host.get();
      prop.pMetricName = p.ppMetricNames[i];
      if (cuptiProfilerHostGetMetricProperties(&prop) == CUPTI_SUCCESS) {
        m.description = prop.pDescription ? prop.pDescription : "";
        m.unit = prop.pDimUnit ? prop.pDimUnit : "";
      }
      out.push_back(std::move(m));
    }
  }
  std::sort(out.begin(), out.end(), [](const MetricInfo& a, const MetricInfo& b) { return a.name < b.name; });
  return out;
}

MetricCheck check_chip_metrics(const std::string& chip, const std::vector<std::string>& raw_metrics) {
  MetricCheck check;
  HostObject host(chip);
  if (!host.status().ok()) {
    check.error = "unknown chip '" + chip + "': " + host.status().detail;
    return check;
  }
  std::vector<const char*> names;
  for (const auto& n : raw_metrics) names.push_back(n.c_str());
  for (const char* name : names) {
    CUPROBE_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, prop);
    prop.pHostObject = host.get();
    prop.pMetricName = name;
    if (cuptiProfilerHostGetMetricProperties(&prop) != CUPTI_SUCCESS) {
      check.error = std::string("'") + name + "' is not a metric of " + chip;
      return check;
    }
  }
  CUPROBE_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, add);
  add.pHostObject = host.get();
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  BackendStatus st =
      classify_cupti_result(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
  if (!st.ok()) {
    check.error = st.detail;
    return check;
  }
  CUPROBE_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, size);
  size.pHostObject = host.get();
  st = classify_cupti_result(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
  if (!st.ok()) {
    check.error = st.detail;
    return check;
  }
  std::vector<std::uint8_t> image(size.configImageSize);
  CUPROBE_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, img);
  img.pHostObject = host.get();
  img.configImageSize = image.size();
  img.pConfigImage = image.data();
  st = classify_cupti_result(cuptiProfilerHostGetConfigImage(&img), "cuptiProfilerHostGetConfigImage");
  if (!st.ok()) {
    check.error = st.detail;
    return check;
  }
  CUPROBE_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, passes);
  passes.configImageSize = image.size();
  passes.pConfigImage = image.data();
  st = classify_cupti_result(cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses");
  if (!st.ok()) {
    check.error = st.detail;
    return check;
  }
  check.passes = passes.numOfPasses;
  check.ok = passes.numOfPasses == 1;
  if (!check.ok) check.error = std::to_string(passes.numOfPasses) + " passes needed (PM sampling reads one)";
  return check;
}

}  // namespace cuprobe
