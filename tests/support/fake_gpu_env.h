// The test-only environment that makes the cuprobe binary see two fake GPUs:
// the fake NVML library (tests/collect/device/fake_nvml.cpp) and the synthetic
// PM backend (src/collect/counters/synthetic_pm_backend.h).
#pragma once

#include <string>
#include <vector>

#include "support/test_paths.h"

namespace cuprobe::test {

inline std::vector<std::string> fake_gpu_env() {
  return {std::string("CUPROBE_TEST_NVML_LIBRARY=") + CUPROBE_FAKE_NVML, "CUPROBE_TEST_PM_BACKEND=synthetic"};
}

// An environment without a GPU: NVML that cannot load, and the real (absent) CUPTI backend.
inline std::vector<std::string> no_gpu_env() {
  return {"CUPROBE_TEST_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1",
          "CUPROBE_TEST_PM_BACKEND=", "CUDA_VISIBLE_DEVICES="};
}

}  // namespace cuprobe::test
