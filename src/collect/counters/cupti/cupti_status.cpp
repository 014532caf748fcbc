#include "collect/counters/cupti/cupti_status.h"

#include <cupti.h>

namespace cuprobe {

BackendStatus classify_cupti_result(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return {};
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text) text = "unknown CUPTI error";
  std::string detail = std::string(call) + ": " + text;
  CounterStatus code = CounterStatus::kOther;
  switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      code = CounterStatus::kInsufficientPrivileges;
      break;
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
      code = CounterStatus::kBusy;
      break;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
      code = CounterStatus::kUnsupportedDevice;
      break;
    case CUPTI_ERROR_INVALID_CHIP_NAME:
      code = CounterStatus::kUnsupportedChip;
      break;
    case CUPTI_ERROR_INVALID_METRIC_NAME:
      code = CounterStatus::kInvalidMetric;
      break;
    case CUPTI_ERROR_OUT_OF_MEMORY:
      code = CounterStatus::kOverflow;
      break;
    case CUPTI_ERROR_INVALID_DEVICE:
      code = CounterStatus::kNoGpu;
      break;
    default:
      break;
  }
  return {code, detail};
}

}  // namespace cuprobe
