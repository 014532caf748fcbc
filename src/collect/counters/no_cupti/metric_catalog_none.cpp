#include "collect/counters/metric_catalog.h"
#include "common/error.h"

namespace cuprobe {
namespace {

[[noreturn]] void refuse() {
  throw Error(
      "built without CUPTI: metric lists need the CUPTI host libraries; rebuild with the CUDA "
      "toolkit (12.8 or newer)",
      kExitCountersUnavailable);
}

}  // namespace

std::vector<std::string> catalog_supported_chips() { refuse(); }
std::vector<MetricInfo> list_chip_metrics(const std::string&) { refuse(); }
MetricCheck check_chip_metrics(const std::string&, const std::vector<std::string>&) { refuse(); }

}  // namespace cuprobe
