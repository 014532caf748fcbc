#include "collect/counters/cupti/cupti_status.h"

#include <gtest/gtest.h>

namespace cuprobe::test {
namespace {

TEST(CuptiStatus, ClassifiesTheRefusals) {
  EXPECT_TRUE(classify_cupti_result(CUPTI_SUCCESS, "x").ok());
  EXPECT_EQ(classify_cupti_result(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "x").code,
            CounterStatus::kInsufficientPrivileges);
  EXPECT_EQ(classify_cupti_result(CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES, "x").code,
            CounterStatus::kInsufficientPrivileges);
  EXPECT_EQ(classify_cupti_result(CUPTI_ERROR_HARDWARE_BUSY, "x").code, CounterStatus::kBusy);
  EXPECT_EQ(classify_cupti_result(CUPTI_ERROR_NOT_SUPPORTED, "x").code, CounterStatus::kUnsupportedDevice);
  EXPECT_EQ(classify_cupti_result(CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED, "x").code, CounterStatus::kUnsupportedDevice);
  EXPECT_EQ(classify_cupti_result(CUPTI_ERROR_INVALID_CHIP_NAME, "x").code, CounterStatus::kUnsupportedChip);
  EXPECT_EQ(classify_cupti_result(CUPTI_ERROR_INVALID_METRIC_NAME, "x").code, CounterStatus::kInvalidMetric);
  EXPECT_EQ(classify_cupti_result(CUPTI_ERROR_UNKNOWN, "x").code, CounterStatus::kOther);
}

TEST(CuptiStatus, DetailNamesTheCallAndTheError) {
  BackendStatus st = classify_cupti_result(CUPTI_ERROR_HARDWARE_BUSY, "cuptiPmSamplingEnable");
  EXPECT_NE(st.detail.find("cuptiPmSamplingEnable"), std::string::npos);
  EXPECT_NE(st.detail.find("BUSY"), std::string::npos);
}

}  // namespace
}  // namespace cuprobe::test
