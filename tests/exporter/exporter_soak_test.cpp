// Memory stays flat over a long run: a million counter samples through the
// exporter's collector, scraped and rendered as Prometheus would, with NVML read
// on every poll. Labelled "soak" in ctest (tests/CMakeLists.txt), bounded to seconds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "common/clock.h"
#include "exporter/exporter_collector.h"
#include "exporter/exporter_metrics.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

constexpr std::int64_t kSamples = 1'000'000;
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRssMeansLeaks = false;  // ASan keeps freed blocks in quarantine: RSS grows without a leak
#else
constexpr bool kRssMeansLeaks = true;
#endif
constexpr int kRowsPerDrain = 1000;

class EndlessSampler final : public DeviceSampler {
 public:
  const std::vector<std::string>& metric_names() const override { return names_; }
  void start() override {}
  std::vector<CounterRow> drain() override {
    std::vector<CounterRow> rows;
    for (int i = 0; i < kRowsPerDrain; ++i) {
      t_ += 1'000'000;  // 1 ms samples
      rows.push_back({i % 2, t_ - 1'000'000, t_, {93.0, 50.0, 2e12, 10.0, 20.0}});
    }
    produced_ += kRowsPerDrain;
    return rows;
  }
  void stop() override {}
  std::int64_t lost_samples() const override { return 0; }
  std::vector<int> gpus() const override { return {0, 1}; }
  std::int64_t produced() const { return produced_; }

 private:
  std::vector<std::string> names_ = {"tensor_active_pct", "sm_active_pct", "dram_read_bytes_per_s", "tensor_hmma_pct",
                                     "dram_pct"};
  std::int64_t t_ = realtime_ns();
  std::int64_t produced_ = 0;
};

long rss_kib() {
  long pages = 0, resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return -1;
  if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
  std::fclose(f);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

void soak(std::int64_t window_ns) {
  Nvml nvml(CUPROBE_FAKE_NVML);
  EndlessSampler* sampler = nullptr;
  ExporterOptions options;
  options.window_ns = window_ns;
  options.vitals_period_ns = 1;  // NVML on every poll
  ExporterCollector collector(
      options,
      [&sampler] {
        auto s = std::make_unique<EndlessSampler>();
        sampler = s.get();
        return s;
      },
      [](int gpu) { return gpu; }, nvml);
  long baseline = 0;
  std::size_t page_size = 0;
  std::int64_t t = 0;
  for (std::int64_t drains = 0; drains * kRowsPerDrain < kSamples; ++drains) {
    collector.poll(t += 1'000'000);
    if (drains % 10 == 9) {
      std::string page = render_exporter_metrics(collector.scrape(), drains % 20 == 19);
      if (page_size == 0) page_size = page.size();
      ASSERT_LT(page.size(), page_size + 1024);  // the page does not grow either
    }
    if (drains == 100) baseline = rss_kib();
  }
  ASSERT_NE(sampler, nullptr);
  EXPECT_EQ(sampler->produced(), kSamples);
  long end = rss_kib();
  ASSERT_GT(baseline, 0);
  if (!kRssMeansLeaks) {
    GTEST_SKIP() << "RSS not checked under ASan (its quarantine holds freed memory; ASan's leak check runs instead): "
                 << baseline << " KiB -> " << end << " KiB";
  }
  EXPECT_LT(end - baseline, 2048) << "RSS grew from " << baseline << " KiB to " << end << " KiB";
}

TEST(ExporterSoak, MillionSamplesSinceLastScrapeKeepMemoryFlat) { soak(0); }

TEST(ExporterSoak, MillionSamplesOverATrailingWindowKeepMemoryFlat) { soak(1'000'000'000); }

}  // namespace
}  // namespace cuprobe::test
