#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>

#include "collect/device/nvml.h"
#include "collect/device/nvml_sampler.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

class ListSampler final : public DeviceSampler {
 public:
  explicit ListSampler(std::vector<CounterRow> rows) : rows_(std::move(rows)) {}
  const std::vector<std::string>& metric_names() const override { return names_; }
  void start() override {}
  std::vector<CounterRow> drain() override { return std::exchange(rows_, {}); }
  void stop() override {}
  std::int64_t lost_samples() const override { return 0; }

 private:
  std::vector<std::string> names_ = {"tensor_active_pct"};
  std::vector<CounterRow> rows_;
};

TEST(NvmlVitals, ReadsPowerClocksTemperatureReasonsMemoryUtilisation) {
  Nvml nvml(CUPROBE_FAKE_NVML);
  ASSERT_TRUE(nvml.ok()) << nvml.error();
  ASSERT_EQ(nvml.device_count(), 2);
  NvmlVitals v;
  ASSERT_TRUE(nvml.vitals(1, v));
  EXPECT_DOUBLE_EQ(v.power_w, 250.5);
  EXPECT_DOUBLE_EQ(v.sm_clock_mhz, 1980);
  EXPECT_DOUBLE_EQ(v.memory_clock_mhz, 2619);
  EXPECT_DOUBLE_EQ(v.temperature_c, 41);
  EXPECT_DOUBLE_EQ(v.memory_used_bytes, 2.0 * (1 << 30));
  EXPECT_DOUBLE_EQ(v.gpu_utilization_pct, 51);
  EXPECT_DOUBLE_EQ(v.clock_event_reasons, 4);  // sw_power_cap
  EXPECT_FALSE(nvml.vitals(2, v));
  NvmlDeviceInfo info;
  ASSERT_TRUE(nvml.device(1, info));
  EXPECT_EQ(info.nvml_pci_bus_id, "00000000:19:00.0");
  EXPECT_EQ(info.pci_bus_id, "0000:19:00.0");
}

TEST(NvmlVitals, OlderDriversAnswerThroughTheThrottleReasonsName) {
  Nvml nvml(CUPROBE_FAKE_NVML);
  setenv("CUPROBE_FAKE_NVML_OLD_DRIVER", "1", 1);
  NvmlVitals v;
  bool ok = nvml.vitals(0, v);
  unsetenv("CUPROBE_FAKE_NVML_OLD_DRIVER");
  ASSERT_TRUE(ok);
  EXPECT_DOUBLE_EQ(v.clock_event_reasons, 1);  // gpu_idle, from ...ThrottleReasons
}

TEST(NvmlVitals, MissingLibraryIsUnknownNotZero) {
  Nvml nvml("/nonexistent/libnvidia-ml.so.1");
  EXPECT_FALSE(nvml.ok());
  EXPECT_FALSE(nvml.error().empty());
  NvmlVitals v;
  EXPECT_FALSE(nvml.vitals(0, v));
  EXPECT_TRUE(std::isnan(v.power_w));
}

TEST(NvmlVitals, ReasonNamesFollowNvmlBits) {
  std::vector<std::string> names;
  for (const auto& r : clock_event_reasons()) {
    if (r.bit == 0x4) names.push_back(r.name);
    if (r.bit == 0x40) names.push_back(r.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"}));
}

TEST(NvmlSampler, AppendsVitalColumnsToEveryRow) {
  Nvml nvml(CUPROBE_FAKE_NVML);
  CounterRow a{0, 1, 2, {93.0}}, b{1, 1, 2, {12.0}};
  auto s =
      with_nvml_vitals(std::make_unique<ListSampler>(std::vector<CounterRow>{a, b}), nvml, [](int gpu) { return gpu; });
  const auto& names = s->metric_names();
  ASSERT_EQ(names.size(), 1 + nvml_vital_columns().size());
  EXPECT_EQ(names[1], "power_w");
  EXPECT_EQ(names.back(), "clock_event_reasons");
  auto rows = s->drain();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows[0].values[0], 93.0);
  EXPECT_DOUBLE_EQ(rows[0].values[1], 150.5);
  EXPECT_DOUBLE_EQ(rows[1].values[1], 250.5);
  EXPECT_DOUBLE_EQ(rows[1].values.back(), 4);
  EXPECT_EQ(s->raw_metric_names()[1], "nvml:power_w");
}

TEST(NvmlSampler, WithoutNvmlTheColumnsStayEmpty) {
  Nvml nvml("/nonexistent/libnvidia-ml.so.1");
  auto s = with_nvml_vitals(std::make_unique<ListSampler>(std::vector<CounterRow>{{0, 1, 2, {93.0}}}), nvml,
                            [](int gpu) { return gpu; });
  auto rows = s->drain();
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].values.size(), 1 + nvml_vital_columns().size());
  for (std::size_t i = 1; i < rows[0].values.size(); ++i) EXPECT_TRUE(std::isnan(rows[0].values[i]));
}

}  // namespace
}  // namespace cuprobe::test
