// Every preset is checked through the CUPTI profiler host API with the chip name
// alone (no GPU needed): each raw name is a metric of its chip, and each chip's
// preset fits in one PM sampling pass.
#include <gtest/gtest.h>

#include <algorithm>

#include "collect/counters/metric_catalog.h"
#include "collect/counters/metric_presets.h"
#include "common/error.h"

namespace cuprobe::test {
namespace {

// CUPTI's host API dlopens libnvperf_host.so with RTLD_DEEPBIND, which the ASan runtime
// refuses (it aborts the process): these checks run in the release build only.
#if defined(__SANITIZE_ADDRESS__)
#define CUPROBE_SKIP_UNDER_ASAN() GTEST_SKIP() << "CUPTI host API cannot load under ASan (RTLD_DEEPBIND)"
#else
#define CUPROBE_SKIP_UNDER_ASAN() (void)0
#endif

TEST(PresetsOnCupti, EveryPresetIsValidAndOnePassOnEveryChip) {
  CUPROBE_SKIP_UNDER_ASAN();
  for (const auto& preset : preset_names()) {
    for (const auto& chip : preset_chips()) {
      auto metrics = resolve_metrics(chip, preset, {});
      ASSERT_FALSE(metrics.empty()) << preset << " on " << chip;
      std::vector<std::string> raw;
      for (const auto& m : metrics) raw.push_back(m.raw);
      MetricCheck check = check_chip_metrics(chip, raw);
      EXPECT_TRUE(check.ok) << preset << " on " << chip << ": " << check.error;
      EXPECT_EQ(check.passes, 1u) << preset << " on " << chip;
    }
  }
}

TEST(PresetsOnCupti, EachPresetNameIsAMetricOfItsChip) {
  CUPROBE_SKIP_UNDER_ASAN();
  for (const auto& chip : preset_chips()) {
    for (const auto& entry : preset_entries("pipes")) {  // every column of every preset
      std::string raw = preset_raw_name(entry, chip);
      if (raw.empty()) continue;
      MetricCheck check = check_chip_metrics(chip, {raw});
      EXPECT_TRUE(check.ok) << entry.column << " on " << chip << ": " << check.error;
    }
  }
}

TEST(PresetsOnCupti, CheckerRejectsWrongNamesAndTooManyPasses) {
  CUPROBE_SKIP_UNDER_ASAN();
  MetricCheck bad = check_chip_metrics("GH100", {"no__such_metric.sum"});
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.error.find("no__such_metric.sum"), std::string::npos);
  // Hopper's Blackwell-only subpipe name is not a Hopper metric.
  EXPECT_FALSE(check_chip_metrics("GH100", {"TPC.TriageCompute.sm__pipe_tensor_subpipe_hmma_cycles_active_realtime"
                                            ".avg.pct_of_peak_sustained_elapsed"})
                   .ok);
  // DMMA together with the unprefixed sm__cycles_active needs two passes on GH100.
  MetricCheck two = check_chip_metrics(
      "GH100", {"SM_C.TriageCompute.smsp__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
                "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"});
  EXPECT_FALSE(two.ok);
  EXPECT_EQ(two.passes, 2u);
  EXPECT_FALSE(check_chip_metrics("NOPE1", {"gr__cycles_active.sum"}).ok);
}

TEST(PresetsOnCupti, ChipListingHasMetricsAndRejectsUnknownChips) {
  CUPROBE_SKIP_UNDER_ASAN();
  auto metrics = list_chip_metrics("GB202");
  EXPECT_GT(metrics.size(), 100u);
  bool found = false;
  for (const auto& m : metrics) found |= m.name == "dram__bytes_op_read";
  EXPECT_TRUE(found);
  auto chips = catalog_supported_chips();
  for (const auto& c : preset_chips()) EXPECT_NE(std::find(chips.begin(), chips.end(), c), chips.end()) << c;
  EXPECT_THROW(list_chip_metrics("XYZ"), Error);
}

}  // namespace
}  // namespace cuprobe::test
