#include "exporter/exporter_collector.h"

#include <gtest/gtest.h>

#include <cmath>

#include "collect/counters/counter_refusal.h"
#include "common/error.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

// What the collector's sampler does, set by the test between polls.
struct Script {
  bool refuse = false;  // the opener throws "busy"
  bool fail = false;    // drain() throws
  int opens = 0;
  std::vector<CounterRow> rows;  // handed out by the next drain()
  std::int64_t lost = 0;
};

class ScriptedSampler final : public DeviceSampler {
 public:
  explicit ScriptedSampler(Script& s) : s_(s) {}
  const std::vector<std::string>& metric_names() const override { return names_; }
  void start() override {}
  std::vector<CounterRow> drain() override {
    if (s_.fail) throw Error("GPU 0 (GH100): counters could not be read [decode failed]", kExitCountersUnavailable);
    return std::exchange(s_.rows, {});
  }
  void stop() override {}
  std::int64_t lost_samples() const override { return s_.lost; }
  std::vector<int> gpus() const override { return {0, 1}; }

 private:
  Script& s_;
  std::vector<std::string> names_ = {"tensor_active_pct", "dram_pct"};
};

constexpr std::int64_t kSecond = 1'000'000'000;

struct Fixture {
  Script script;
  Nvml nvml{CUPROBE_FAKE_NVML};
  ExporterCollector collector;
  Fixture()
      : collector(
            ExporterOptions{},
            [this]() -> std::unique_ptr<DeviceSampler> {
              ++script.opens;
              if (script.refuse) {
                throw counter_refusal({CounterStatus::kBusy, "dcgm"}, 0, "GH100");
              }
              return std::make_unique<ScriptedSampler>(script);
            },
            [](int gpu) { return gpu; }, nvml) {}
};

CounterRow row(int gpu, double tensor, std::int64_t end_ns) { return {gpu, end_ns - 100, end_ns, {tensor, 50}}; }

TEST(ExporterCollector, MeansSinceTheLastScrapeAndVitalsBeside) {
  Fixture f;
  f.script.rows = {row(0, 90, 1000), row(0, 96, 2000), row(1, 10, 2000)};
  f.collector.poll(0);
  ExporterSnapshot s = f.collector.scrape();
  ASSERT_TRUE(s.counters_available);
  ASSERT_EQ(s.gpus.size(), 2u);
  EXPECT_EQ(s.gpus[0].labels.uuid, "GPU-fa4e0000-0000-0000-0000-000000000000");
  EXPECT_EQ(s.gpus[0].labels.pci_bus_id, "00000000:18:00.0");
  EXPECT_EQ(s.gpus[0].labels.device, "nvidia0");
  EXPECT_DOUBLE_EQ(s.gpus[0].counter_means[0], 93);
  EXPECT_EQ(s.gpus[0].counter_rows, 2);
  EXPECT_DOUBLE_EQ(s.gpus[1].counter_means[0], 10);
  EXPECT_TRUE(s.gpus[1].vitals);
  EXPECT_DOUBLE_EQ(s.gpus[1].vital_means[0], 250.5);  // power_w
  f.script.rows = {row(0, 50, 3000)};
  f.collector.poll(kSecond / 10);
  EXPECT_DOUBLE_EQ(f.collector.scrape().gpus[0].counter_means[0], 50);
}

TEST(ExporterCollector, BusyCountersAreRetriedWithBackoffWhileNvmlFlows) {
  Fixture f;
  std::vector<std::string> log;
  f.collector.on_state_change([&log](const std::string& s) { log.push_back(s); });
  f.script.refuse = true;
  f.collector.poll(0);
  ExporterSnapshot s = f.collector.scrape();
  EXPECT_FALSE(s.counters_available);
  EXPECT_EQ(s.counters_reason, "busy");
  EXPECT_EQ(s.gpus[0].counters_reason, "busy");
  EXPECT_TRUE(s.gpus[0].vitals);
  EXPECT_EQ(f.script.opens, 1);
  f.collector.poll(kSecond / 2);  // before the first backoff (1 s) ends
  EXPECT_EQ(f.script.opens, 1);
  f.collector.poll(kSecond);
  EXPECT_EQ(f.script.opens, 2);
  f.collector.poll(2 * kSecond);  // the backoff doubled: next try at 3 s
  EXPECT_EQ(f.script.opens, 2);
  f.script.refuse = false;
  f.collector.poll(3 * kSecond);
  EXPECT_EQ(f.script.opens, 3);
  s = f.collector.scrape();
  EXPECT_TRUE(s.counters_available);
  EXPECT_EQ(s.counters_reason, "ok");
  EXPECT_EQ(s.open_attempts, 3);
  ASSERT_EQ(log.size(), 2u);  // once per change, not once per poll
  EXPECT_EQ(log[0].rfind("counters: unavailable (busy): GPU 0 (GH100): counters are held", 0), 0u) << log[0];
  EXPECT_EQ(log[1], "counters: sampling (cupti)");
}

TEST(ExporterCollector, AFailingSamplerDropsItsSeriesAndIsReopened) {
  Fixture f;
  f.script.rows = {row(0, 90, 1000)};
  f.script.lost = 3;
  f.collector.poll(0);
  EXPECT_TRUE(f.collector.scrape().gpus[0].counters);
  f.script.fail = true;
  f.collector.poll(kSecond / 10);
  ExporterSnapshot s = f.collector.scrape();
  EXPECT_FALSE(s.counters_available);
  EXPECT_EQ(s.counters_reason, "other");
  EXPECT_FALSE(s.gpus[0].counters);
  EXPECT_TRUE(std::isnan(s.gpus[0].counter_means[0]));
  EXPECT_EQ(s.gpus[0].last_sample_end_ns, 0);
  EXPECT_EQ(s.counter_failures, 1);
  EXPECT_EQ(s.lost_samples, 3);
  f.script.fail = false;
  f.collector.poll(2 * kSecond);
  EXPECT_EQ(f.script.opens, 2);
  EXPECT_TRUE(f.collector.scrape().counters_available);
  EXPECT_NE(f.collector.counters_state().find("sampling"), std::string::npos);
}

TEST(ExporterCollector, ReasonOfEveryRefusal) {
  for (CounterStatus c :
       {CounterStatus::kNoDriver, CounterStatus::kNoGpu, CounterStatus::kInsufficientPrivileges, CounterStatus::kBusy,
        CounterStatus::kUnsupportedDevice, CounterStatus::kUnsupportedChip, CounterStatus::kInvalidMetric,
        CounterStatus::kTooManyMetrics, CounterStatus::kOverflow, CounterStatus::kOther}) {
    EXPECT_EQ(counter_unavailable_reason(counter_refusal_message({c, "x"}, 0, "GH100")), counter_status_name(c));
  }
  EXPECT_EQ(counter_unavailable_reason("built without CUPTI: this cuprobe cannot read GPU counters"), "no_cupti");
  EXPECT_EQ(counter_unavailable_reason("dcgm-exporter at http://h:9400/metrics: connection refused"),
            "dcgm_unreachable");
  EXPECT_EQ(counter_unavailable_reason("something else"), "error");
}

TEST(ExporterCollector, WithoutNvmlGpusComeFromTheCounters) {
  Script script;
  Nvml none("/nonexistent/libnvidia-ml.so.1");
  ExporterCollector c(
      ExporterOptions{}, [&script] { return std::make_unique<ScriptedSampler>(script); }, [](int) { return -1; }, none);
  script.rows = {row(1, 70, 1000)};
  c.poll(0);
  ExporterSnapshot s = c.scrape();
  EXPECT_FALSE(s.nvml_available);
  ASSERT_EQ(s.gpus.size(), 2u);  // both sampled GPUs, by their counter number
  EXPECT_EQ(s.gpus[1].labels.gpu, 1);
  EXPECT_DOUBLE_EQ(s.gpus[1].counter_means[0], 70);
  EXPECT_FALSE(s.gpus[1].vitals);
}

}  // namespace
}  // namespace cuprobe::test
