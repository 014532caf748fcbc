#include "collect/counters/counter_refusal.h"

#include <gtest/gtest.h>

namespace cuprobe::test {
namespace {

TEST(CounterRefusal, EachReasonSaysWhatToDoOnOneLine) {
  struct Case {
    CounterStatus status;
    const char* must_contain;
    int exit_code;
  };
  for (const Case& c : std::initializer_list<Case>{
           {CounterStatus::kNoDriver, "NVIDIA driver", 3},
           {CounterStatus::kNoGpu, "CUDA_VISIBLE_DEVICES", 3},
           {CounterStatus::kInsufficientPrivileges, "NVreg_RestrictProfilingToAdminUsers=0", 3},
           {CounterStatus::kBusy, "dcgmi profile --pause", 3},
           {CounterStatus::kUnsupportedDevice, "MIG", 3},
           {CounterStatus::kUnsupportedChip, "newer CUDA toolkit", 3},
           {CounterStatus::kInvalidMetric, "--list-metrics --chip GH100", 2},
           {CounterStatus::kTooManyMetrics, "fewer metrics", 2},
           {CounterStatus::kOther, "could not be read", 3},
       }) {
    BackendStatus st{c.status, "cuptiX: CUPTI_ERROR_Y"};
    std::string msg = counter_refusal_message(st, 1, "GH100");
    EXPECT_NE(msg.find(c.must_contain), std::string::npos) << counter_status_name(c.status) << ": " << msg;
    EXPECT_NE(msg.find("CUPTI_ERROR_Y"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_EQ(counter_refusal_exit_code(c.status), c.exit_code);
    EXPECT_EQ(counter_refusal(st, 1, "GH100").exit_code(), c.exit_code);
  }
}

TEST(CounterRefusal, NamesTheGpuWhenThereIsOne) {
  BackendStatus st{CounterStatus::kBusy, ""};
  EXPECT_EQ(counter_refusal_message(st, 3, "GB100").rfind("GPU 3 (GB100)", 0), 0u);
  EXPECT_EQ(counter_refusal_message(st, -1).rfind("GPU:", 0), 0u);
}

TEST(CounterRefusal, StatusNamesAreFrozen) {
  EXPECT_STREQ(counter_status_name(CounterStatus::kOk), "ok");
  EXPECT_STREQ(counter_status_name(CounterStatus::kInsufficientPrivileges), "insufficient_privileges");
  EXPECT_STREQ(counter_status_name(CounterStatus::kBusy), "busy");
  EXPECT_STREQ(counter_status_name(CounterStatus::kNoDriver), "no_driver");
}

}  // namespace
}  // namespace cuprobe::test
