#include "collect/counters/pm_device_sampler.h"

#include <gtest/gtest.h>

#include <cmath>

#include "collect/counters/fake_pm_backend.h"
#include "collect/counters/metric_presets.h"
#include "common/error.h"

namespace cuprobe::test {
namespace {

SamplerConfig fast_config() {
  SamplerConfig c;
  c.interval = std::chrono::milliseconds(10);
  c.decode_period = std::chrono::milliseconds(1);
  c.metrics = {"a.sum", "b.avg.pct_of_peak_sustained_elapsed"};
  return c;
}

// Runs open_pm_sampler and returns the error it throws (message, exit code).
std::pair<std::string, int> refusal(FakeBackendScript script, SamplerConfig config = fast_config()) {
  FakeBackendLog log;
  try {
    auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(std::move(script), &log), config);
  } catch (const Error& e) {
    return {e.what(), e.exit_code()};
  }
  return {"", 0};
}

TEST(PmDeviceSampler, BuiltWithoutCuptiRefusesWithExit3) {
  try {
    open_pm_sampler(nullptr, fast_config());
    FAIL() << "expected a refusal";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 3);
    EXPECT_NE(std::string(e.what()).find("built without CUPTI"), std::string::npos);
  }
}

TEST(PmDeviceSampler, NoDriver) {
  FakeBackendScript s;
  s.init = {CounterStatus::kNoDriver, "libcuda.so.1: cannot open shared object file"};
  auto [msg, code] = refusal(s);
  EXPECT_EQ(code, 3);
  EXPECT_NE(msg.find("no NVIDIA driver"), std::string::npos);
  EXPECT_NE(msg.find("libcuda.so.1"), std::string::npos);
}

TEST(PmDeviceSampler, NoGpu) {
  FakeBackendScript s;
  s.devices = 0;
  auto [msg, code] = refusal(s);
  EXPECT_EQ(code, 3);
  EXPECT_NE(msg.find("no CUDA GPU visible"), std::string::npos);
}

TEST(PmDeviceSampler, RestrictedToAdminsNamesTheDriverOption) {
  FakeBackendScript s;
  s.enable_status[0] = {CounterStatus::kInsufficientPrivileges, "cuptiPmSamplingGetCounterAvailability: ..."};
  auto [msg, code] = refusal(s);
  EXPECT_EQ(code, 3);
  EXPECT_NE(msg.find("NVreg_RestrictProfilingToAdminUsers"), std::string::npos);
  EXPECT_NE(msg.find("GPU 0 (GH100)"), std::string::npos);
}

TEST(PmDeviceSampler, CountersBusy) {
  FakeBackendScript s;
  s.devices = 2;
  s.enable_status[1] = {CounterStatus::kBusy, "cuptiPmSamplingEnable: CUPTI_ERROR_HARDWARE_BUSY"};
  FakeBackendLog log;
  try {
    open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 3);
    EXPECT_NE(std::string(e.what()).find("GPU 1"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("another profiler"), std::string::npos);
  }
  // GPU 0 was enabled before GPU 1 failed: it must be released.
  EXPECT_EQ(log.count("disable 0"), 1);
}

TEST(PmDeviceSampler, UnsupportedDeviceAndChip) {
  FakeBackendScript s;
  s.enable_status[0] = {CounterStatus::kUnsupportedDevice, "cuptiProfilerDeviceSupported: architecture"};
  EXPECT_EQ(refusal(s).second, 3);
  FakeBackendScript t;
  t.chip_status[0] = {CounterStatus::kUnsupportedChip, "cuptiDeviceGetChipName"};
  EXPECT_EQ(refusal(t).second, 3);
}

TEST(PmDeviceSampler, PresetOnChipWithoutTableRefusesButRawMetricsWork) {
  FakeBackendScript s;
  s.chips[0] = "AD102";
  SamplerConfig preset = fast_config();
  preset.metrics.clear();
  auto [msg, code] = refusal(s, preset);
  EXPECT_EQ(code, 3);
  EXPECT_NE(msg.find("--metrics"), std::string::npos);
  EXPECT_EQ(refusal(s, fast_config()).second, 0);
}

TEST(PmDeviceSampler, InvalidMetricIsUsageError) {
  FakeBackendScript s;
  s.enable_status[0] = {CounterStatus::kInvalidMetric, "'x' is not a metric of GH100"};
  auto [msg, code] = refusal(s);
  EXPECT_EQ(code, 2);
  EXPECT_NE(msg.find("--list-metrics"), std::string::npos);
}

TEST(PmDeviceSampler, NonexistentGpuIsUsageError) {
  FakeBackendScript s;
  s.devices = 2;
  SamplerConfig c = fast_config();
  c.gpus = {0, 2};
  auto [msg, code] = refusal(s, c);
  EXPECT_EQ(code, 2);
  EXPECT_NE(msg.find("GPU 2 does not exist"), std::string::npos);
}

TEST(PmDeviceSampler, MixedChipsRefused) {
  FakeBackendScript s;
  s.devices = 2;
  s.chips[1] = "GB100";
  SamplerConfig c = fast_config();
  c.metrics.clear();
  // GH100 and GB100 share the triage columns (under different raw names), so this works...
  EXPECT_EQ(refusal(s, c).second, 0);
  // ...but GB202 lacks DMMA and NVLink columns.
  s.chips[1] = "GB202";
  auto [msg, code] = refusal(s, c);
  EXPECT_EQ(code, 2);
  EXPECT_NE(msg.find("sample them separately"), std::string::npos);
}

TEST(PmDeviceSampler, PresetColumnsAndRawNames) {
  FakeBackendScript s;
  FakeBackendLog log;
  SamplerConfig c = fast_config();
  c.metrics.clear();
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), c);
  ASSERT_FALSE(sampler->metric_names().empty());
  EXPECT_EQ(sampler->metric_names()[0], "gr_active_pct");
  EXPECT_EQ(log.enabled_metrics, sampler->raw_metric_names());
  EXPECT_EQ(log.enabled_interval, 10000000);
  EXPECT_EQ(sampler->chips(), std::vector<std::string>{"GH100"});
}

TEST(PmDeviceSampler, PresetColumnsAGpuLacksAreSkippedNotZeroed) {
  FakeBackendScript s;
  s.devices = 2;
  s.unavailable[1] = {"nvlrx__bytes.sum.per_second"};
  FakeBackendLog log;
  SamplerConfig c = fast_config();
  c.metrics.clear();
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), c);
  EXPECT_EQ(sampler->skipped_metrics(), std::vector<std::string>{"nvlink_rx_bytes_per_s"});
  for (const auto& n : sampler->metric_names()) EXPECT_NE(n, "nvlink_rx_bytes_per_s");
  EXPECT_EQ(log.enabled_metrics.size(), sampler->metric_names().size());
}

TEST(PmDeviceSampler, RawMetricTheGpuLacksIsAnError) {
  FakeBackendScript s;
  s.unavailable[0] = {"b.avg.pct_of_peak_sustained_elapsed"};
  auto [msg, code] = refusal(s);
  EXPECT_EQ(code, 2);
  EXPECT_NE(msg.find("'b.avg.pct_of_peak_sustained_elapsed' is not available on GPU 0"), std::string::npos);
}

TEST(PmDeviceSampler, RowsFlowThroughDrainAndStopFlushes) {
  FakeBackendScript s;
  s.devices = 2;
  s.decodes[0].push_back({raw_sample(1000, 2000, {1, 2}), raw_sample(2000, 3000, {3, std::nan("")})});
  s.decodes[1].push_back({raw_sample(1000, 2000, {5, 6})});
  FakeBackendLog log;
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
  EXPECT_EQ(sampler->gpus(), (std::vector<int>{0, 1}));
  sampler->start();
  sampler->stop();
  auto rows = sampler->drain();
  ASSERT_EQ(rows.size(), 3u);
  int gpu1 = 0;
  for (const auto& r : rows) {
    ASSERT_EQ(r.values.size(), 2u);
    gpu1 += r.gpu == 1;
  }
  EXPECT_EQ(gpu1, 1);
  // A value that was not read stays NaN.
  bool saw_nan = false;
  for (const auto& r : rows) saw_nan |= std::isnan(r.values[1]);
  EXPECT_TRUE(saw_nan);
  EXPECT_EQ(log.count("stop 0"), 1);
  EXPECT_EQ(log.count("stop 1"), 1);
  EXPECT_TRUE(sampler->drain().empty());
  EXPECT_EQ(sampler->lost_samples(), 0);
}

TEST(PmDeviceSampler, ShortValueVectorsArePaddedWithNaN) {
  FakeBackendScript s;
  s.decodes[0].push_back({raw_sample(0, 10, {7})});
  FakeBackendLog log;
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
  sampler->start();
  sampler->stop();
  auto rows = sampler->drain();
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].values.size(), 2u);
  EXPECT_EQ(rows[0].values[0], 7);
  EXPECT_TRUE(std::isnan(rows[0].values[1]));
}

TEST(PmDeviceSampler, OverflowCountsTheGapInIntervals) {
  FakeBackendScript s;
  const std::int64_t ms = 1000000;
  s.decodes[0].push_back({raw_sample(0, 10 * ms, {1, 1})});
  s.overflow_on_decode[0].push_back(false);
  // Overflow reported; the next sample starts 50 ms after the last one ended: 5 lost.
  s.decodes[0].push_back({});
  s.overflow_on_decode[0].push_back(true);
  s.decodes[0].push_back({raw_sample(60 * ms, 70 * ms, {1, 1})});
  FakeBackendLog log;
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
  sampler->start();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  sampler->stop();
  EXPECT_EQ(sampler->drain().size(), 2u);
  EXPECT_EQ(sampler->lost_samples(), 5);
}

TEST(PmDeviceSampler, AGapIsCountedEvenWithoutAnOverflowFlag) {
  // CUPTI does not always say "overflow" when records went missing (seen on GH100).
  FakeBackendScript s;
  const std::int64_t ms = 1000000;
  s.decodes[0].push_back({raw_sample(0, 10 * ms, {1, 1}), raw_sample(40 * ms, 50 * ms, {1, 1}),
                          raw_sample(50 * ms, 60 * ms, {1, 1}), raw_sample(75 * ms, 85 * ms, {1, 1}),
                          raw_sample(99 * ms, 109 * ms, {1, 1})});
  FakeBackendLog log;
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
  sampler->start();
  sampler->stop();
  EXPECT_EQ(sampler->drain().size(), 5u);
  // 30 ms gap: 3 lost; 15 ms (1.5 intervals): 2; 14 ms (1.4 intervals) is jitter, not counted.
  EXPECT_EQ(sampler->lost_samples(), 3 + 2);
}

TEST(PmDeviceSampler, PartialSamplesTheBackendDroppedAreCountedOnce) {
  FakeBackendScript s;
  const std::int64_t ms = 1000000;
  s.decodes[0].push_back({raw_sample(0, 10 * ms, {1, 1})});
  s.dropped_partials_on_decode[0].push_back(0);
  // The partial 10-20 ms was dropped: a one-interval gap, which the gap rule alone lets pass.
  s.decodes[0].push_back({raw_sample(20 * ms, 30 * ms, {1, 1})});
  s.dropped_partials_on_decode[0].push_back(1);
  // The partial 30-40 ms dropped and 40-60 ms never delivered: 3 lost, not 4.
  s.decodes[0].push_back({raw_sample(60 * ms, 70 * ms, {1, 1})});
  s.dropped_partials_on_decode[0].push_back(1);
  FakeBackendLog log;
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
  sampler->start();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  sampler->stop();
  EXPECT_EQ(sampler->drain().size(), 3u);
  EXPECT_EQ(sampler->lost_samples(), 1 + 3);
}

TEST(PmDeviceSampler, ASilentStreamIsRestartedAndItsSilenceCounted) {
  FakeBackendScript s;
  const std::int64_t ms = 1000000;
  s.decodes[0].push_back({raw_sample(100 * ms, 110 * ms, {1, 1})});
  FakeBackendLog log;
  log.clock_ns = 100 * ms;
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
  sampler->start();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(log.count("start 0"), 1);
  log.clock_ns = 610 * ms;  // half a second without a sample
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(log.count("start 0"), 2);
  sampler->stop();
  EXPECT_EQ(sampler->drain().size(), 1u);
  EXPECT_EQ(sampler->lost_samples(), (610 - 110) / 10 - 2);
}

TEST(PmDeviceSampler, SamplesMissingAtTheEndAreCounted) {
  FakeBackendScript s;
  const std::int64_t ms = 1000000;
  s.decodes[0].push_back({raw_sample(0, 10 * ms, {1, 1}), raw_sample(10 * ms, 20 * ms, {1, 1})});
  FakeBackendLog log;
  log.clock_ns = 5 * ms;
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
  sampler->start();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  log.clock_ns = 100 * ms;  // stopped 80 ms after the last sample: 8 intervals, 2 of slack
  sampler->stop();
  EXPECT_EQ(sampler->lost_samples(), 6);
  EXPECT_EQ(log.count("start 0"), 1);
}

TEST(PmDeviceSampler, AnOverflowRestartsSampling) {
  FakeBackendScript s;
  s.decodes[0].push_back({});
  s.overflow_on_decode[0].push_back(true);
  FakeBackendLog log;
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
  sampler->start();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  sampler->stop();
  EXPECT_EQ(log.count("start 0"), 2);
  EXPECT_EQ(log.count("stop 0"), 2);
  EXPECT_EQ(sampler->restarts(), 1);
}

TEST(PmDeviceSampler, DecodeErrorSurfacesFromDrain) {
  FakeBackendScript s;
  s.decode_error = {CounterStatus::kOther, "cuptiPmSamplingDecodeData: CUPTI_ERROR_UNKNOWN"};
  FakeBackendLog log;
  auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
  sampler->start();
  sampler->stop();
  try {
    sampler->drain();
    FAIL() << "expected the decode error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("CUPTI_ERROR_UNKNOWN"), std::string::npos);
  }
}

TEST(PmDeviceSampler, DestructorReleasesWithoutStop) {
  FakeBackendScript s;
  FakeBackendLog log;
  {
    auto sampler = open_pm_sampler(std::make_unique<FakePmBackend>(s, &log), fast_config());
    sampler->start();
  }
  EXPECT_EQ(log.count("stop 0"), 1);
  EXPECT_EQ(log.count("disable 0"), 1);
}

}  // namespace
}  // namespace cuprobe::test
