#include "collect/counters/counter_refusal.h"

namespace cuprobe {

const char* counter_status_name(CounterStatus status) {
  switch (status) {
    case CounterStatus::kOk:
      return "ok";
    case CounterStatus::kNoDriver:
      return "no_driver";
    case CounterStatus::kNoGpu:
      return "no_gpu";
    case CounterStatus::kInsufficientPrivileges:
      return "insufficient_privileges";
    case CounterStatus::kBusy:
      return "busy";
    case CounterStatus::kUnsupportedDevice:
      return "unsupported_device";
    case CounterStatus::kUnsupportedChip:
      return "unsupported_chip";
    case CounterStatus::kInvalidMetric:
      return "invalid_metric";
    case CounterStatus::kTooManyMetrics:
      return "too_many_metrics";
    case CounterStatus::kOverflow:
      return "overflow";
    case CounterStatus::kOther:
      return "other";
  }
  return "other";
}

int counter_refusal_exit_code(CounterStatus code) {
  switch (code) {
    case CounterStatus::kInvalidMetric:
    case CounterStatus::kTooManyMetrics:
      return kExitUsage;
    case CounterStatus::kOk:
      return kExitOk;
    default:
      return kExitCountersUnavailable;
  }
}

std::string counter_refusal_message(const BackendStatus& status, int gpu, const std::string& chip) {
  std::string where = gpu >= 0 ? "GPU " + std::to_string(gpu) : std::string("GPU");
  if (!chip.empty() && gpu >= 0) where += " (" + chip + ")";
  std::string detail = status.detail.empty() ? "" : " [" + status.detail + "]";
  switch (status.code) {
    case CounterStatus::kOk:
      return "ok";
    case CounterStatus::kNoDriver:
      return "no NVIDIA driver: libcuda.so.1 could not be loaded or initialized" + detail +
             "; run on a GPU host with the NVIDIA driver installed (check nvidia-smi)";
    case CounterStatus::kNoGpu:
      return "no CUDA GPU visible" + detail +
             "; check nvidia-smi, CUDA_VISIBLE_DEVICES and that this container was given a GPU";
    case CounterStatus::kInsufficientPrivileges:
      return where +
             ": performance counters are restricted to admin users "
             "(NVreg_RestrictProfilingToAdminUsers=1)" +
             detail +
             "; run as root, or set 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in "
             "/etc/modprobe.d/ and reload the driver (https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
    case CounterStatus::kBusy:
      return where +
             ": counters are held by another profiler (ncu, nsys, DCGM profiling or "
             "another cuprobe sample)" +
             detail + "; stop it (for DCGM: 'dcgmi profile --pause') and retry";
    case CounterStatus::kUnsupportedDevice:
      return where + " does not support PM sampling in this configuration" + detail +
             "; PM sampling needs an Ampere GA10x or newer GPU, not MIG-partitioned, not a vGPU "
             "without profiling enabled, no confidential compute";
    case CounterStatus::kUnsupportedChip:
      return where + ": chip not supported by this CUPTI" + detail +
             "; use a newer CUDA toolkit (CUPTI) that knows the chip";
    case CounterStatus::kInvalidMetric:
      return "invalid metric for " + (chip.empty() ? std::string("this chip") : chip) + detail +
             "; see cuprobe sample --list-metrics" + (chip.empty() ? "" : " --chip " + chip);
    case CounterStatus::kTooManyMetrics:
      return "the metrics do not fit in one PM sampling pass" + detail + "; sample fewer metrics";
    case CounterStatus::kOverflow:
      return where + ": hardware sample buffer overflowed" + detail + "; use a longer --interval";
    case CounterStatus::kOther:
      break;
  }
  return where + ": counters could not be read" + detail;
}

Error counter_refusal(const BackendStatus& status, int gpu, const std::string& chip) {
  return Error(counter_refusal_message(status, gpu, chip), counter_refusal_exit_code(status.code));
}

}  // namespace cuprobe
