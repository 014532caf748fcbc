#include "collect/counters/metric_presets.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "common/error.h"

namespace cuprobe::test {
namespace {

int exit_code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.exit_code();
  }
  return 0;
}

std::set<std::string> columns_of(std::string_view chip, std::string_view preset) {
  std::set<std::string> columns;
  for (const auto& x : resolve_metrics(chip, preset, {})) columns.insert(x.column);
  return columns;
}

TEST(MetricPresets, TriageHasTheDeviceLevelQuantitiesOnHopper) {
  auto m = resolve_metrics("GH100", "triage", {});
  auto columns = columns_of("GH100", "triage");
  for (const char* want : {"gr_active_pct", "sm_active_pct", "tensor_active_pct", "dram_read_bytes_per_s",
                           "dram_write_bytes_per_s", "dram_pct", "pcie_read_bytes_per_s", "pcie_write_bytes_per_s",
                           "nvlink_rx_bytes_per_s", "nvlink_tx_bytes_per_s"}) {
    EXPECT_TRUE(columns.count(want)) << want;
  }
  EXPECT_EQ(columns.size(), m.size()) << "column names must be unique";
  for (const auto& x : m) EXPECT_EQ(x.raw.find("TPC."), std::string::npos) << x.raw << ": per-TPC counters are opt-in";
}

TEST(MetricPresets, PipesIsTriagePlusThePerKindTensorAndFmaPipes) {
  auto triage = columns_of("GH100", "triage");
  auto pipes = columns_of("GH100", "pipes");
  for (const auto& c : triage) EXPECT_TRUE(pipes.count(c)) << c;
  std::set<std::string> extra;
  for (const auto& c : pipes) {
    if (!triage.count(c)) extra.insert(c);
  }
  EXPECT_EQ(extra, (std::set<std::string>{"tensor_hmma_pct", "tensor_imma_pct", "fma_pct"}));
}

TEST(MetricPresets, ChipsWithoutAQuantityLeaveItsColumnOut) {
  auto m = resolve_metrics("GB202", "triage", {});
  for (const auto& x : m) {
    EXPECT_NE(x.column, "tensor_dmma_pct");
    EXPECT_NE(x.column, "nvlink_rx_bytes_per_s");
    EXPECT_FALSE(x.raw.empty());
  }
  EXPECT_LT(m.size(), resolve_metrics("GH100", "triage", {}).size());
  EXPECT_LT(resolve_metrics("GB202", "pipes", {}).size(), resolve_metrics("GH100", "pipes", {}).size());
}

TEST(MetricPresets, ColumnsAreStableAcrossHopperAndDatacenterBlackwell) {
  auto h = resolve_metrics("GH100", "pipes", {});
  auto b = resolve_metrics("GB100", "pipes", {});
  ASSERT_EQ(h.size(), b.size());
  for (std::size_t i = 0; i < h.size(); ++i) EXPECT_EQ(h[i].column, b[i].column);
  EXPECT_NE(h[3].raw, b[3].raw);  // tensor_hmma_pct: op_hmma on Hopper, subpipe_hmma on Blackwell
}

TEST(MetricPresets, ChipFamilies) {
  EXPECT_EQ(preset_chip_for("GH100"), "GH100");
  EXPECT_EQ(preset_chip_for("GB110"), "GB100");
  EXPECT_EQ(preset_chip_for("GB203"), "GB202");
  EXPECT_EQ(preset_chip_for("AD102"), "");
  EXPECT_EQ(preset_chip_for(""), "");
}

TEST(MetricPresets, RawMetricsReplaceThePreset) {
  auto m = resolve_metrics("AD102", "triage", {"a__b.sum", "TPC.X.c__d.avg"});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].column, "a__b.sum");
  EXPECT_EQ(m[1].raw, "TPC.X.c__d.avg");
}

TEST(MetricPresets, RefusalsAndUsageErrors) {
  EXPECT_EQ(exit_code_of([] { resolve_metrics("AD102", "triage", {}); }), 3);
  EXPECT_EQ(exit_code_of([] { resolve_metrics("GH100", "nope", {}); }), 2);
  EXPECT_EQ(exit_code_of([] { resolve_metrics("GH100", "triage", {"x.sum", "x.sum"}); }), 2);
  EXPECT_EQ(exit_code_of([] { resolve_metrics("GH100", "triage", {"x;rm -rf"}); }), 2);
}

TEST(MetricPresets, ParseMetricListRejectsHostileInput) {
  EXPECT_EQ(parse_metric_list("a.sum, b__c.avg ,d"), (std::vector<std::string>{"a.sum", "b__c.avg", "d"}));
  for (const char* bad : {"", ",", "a,,b", "a,", "a b", "a\"b", ".a", "a.", "a\nb", "a,\xff"}) {
    EXPECT_EQ(exit_code_of([&] { parse_metric_list(bad); }), 2) << bad;
  }
}

}  // namespace
}  // namespace cuprobe::test
