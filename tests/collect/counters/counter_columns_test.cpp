#include "collect/counters/counter_columns.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "collect/counters/metric_presets.h"
#include "collect/device/nvml_sampler.h"

namespace cuprobe {
namespace {

// --source dcgm reads DCGM's ratios back as percentages with 1 / 0.01: exactly the 100 it
// multiplied by before the table existed, so its values did not move by a bit.
static_assert(1.0 / 0.01 == 100.0);

TEST(CounterColumns, UnitsMatchTheColumnNames) {
  for (const CounterColumn& c : kCounterColumns) {
    std::string name(c.name), unit(c.unit);
    if (name.ends_with("_pct")) {
      EXPECT_EQ(unit, "%") << name;
    } else if (name.ends_with("_bytes_per_s")) {
      EXPECT_EQ(unit, "bytes/s") << name;
    } else if (name.ends_with("_bytes")) {
      EXPECT_EQ(unit, "bytes") << name;
    } else if (name.ends_with("_mhz")) {
      EXPECT_EQ(unit, "MHz") << name;
    } else if (name.ends_with("_w")) {
      EXPECT_EQ(unit, "W") << name;
    } else if (name.ends_with("_c")) {
      EXPECT_EQ(unit, "C") << name;
    } else if (name.ends_with("_mj")) {
      EXPECT_EQ(unit, "mJ") << name;
    } else if (name.ends_with("_kib")) {
      EXPECT_EQ(unit, "KiB") << name;
    } else if (name.ends_with("_rows") || name.ends_with("_replays") || name.ends_with("_errors")) {
      EXPECT_EQ(unit, "count") << name;
    } else if (name.ends_with("_reasons")) {
      EXPECT_EQ(unit, "bitmask") << name;
    } else if (name == "xid_last") {
      EXPECT_EQ(unit, "code") << name;
    } else {
      EXPECT_EQ(unit, "flag") << name;
    }
  }
}

TEST(CounterColumns, PercentagesBecomeDcgmRatios) {
  for (const CounterColumn& c : kCounterColumns) {
    if (c.source != ColumnSource::kCounter) continue;
    bool ratio_series = c.unit == "%";
    EXPECT_EQ(c.series_scale, ratio_series ? 0.01 : 1.0) << c.name;
  }
  const CounterColumn* memory = find_counter_column("memory_used_bytes", ColumnSource::kVital);
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(1024.0 * 1024.0 * memory->series_scale, 1.0) << "DCGM_FI_DEV_FB_USED is in MiB";
  EXPECT_EQ(find_counter_column("power_w", ColumnSource::kCounter), nullptr) << "a raw --metrics name 'power_w'";
}

// The DCGM source's columns, in the order of its sample CSV/JSONL header.
TEST(CounterColumns, DcgmFieldsInColumnOrder) {
  std::vector<std::string> dcgm;
  for (const CounterColumn& c : kCounterColumns) {
    if (c.source == ColumnSource::kCounter && c.dcgm_field_id != 0) dcgm.emplace_back(c.name);
  }
  EXPECT_EQ(dcgm, (std::vector<std::string>{"gr_active_pct", "sm_active_pct", "tensor_active_pct", "tensor_hmma_pct",
                                            "tensor_imma_pct", "tensor_dmma_pct", "fp64_active_pct", "fp32_active_pct",
                                            "fp16_active_pct", "pcie_read_bytes_per_s", "pcie_write_bytes_per_s",
                                            "nvlink_rx_bytes_per_s", "nvlink_tx_bytes_per_s", "dram_active_pct",
                                            "sm_occupancy_pct", "int_active_pct"}));
  const CounterColumn* tensor = find_counter_column("tensor_active_pct", ColumnSource::kCounter);
  ASSERT_NE(tensor, nullptr);
  EXPECT_EQ(tensor->series, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE");
  EXPECT_EQ(tensor->dcgm_field_id, 1004);
}

// The vital signs `sample` appends come first, in its order; the exporter reads the rest beside them.
TEST(CounterColumns, VitalColumnsAreNvmlsInItsOrder) {
  std::vector<std::string> vitals;
  for (const CounterColumn& c : kCounterColumns) {
    if (c.source == ColumnSource::kVital) vitals.emplace_back(c.name);
  }
  ASSERT_GE(vitals.size(), nvml_vital_columns().size());
  vitals.resize(nvml_vital_columns().size());
  EXPECT_EQ(vitals, nvml_vital_columns());
}

// DCGM's own meaning stays with DCGM's name: cuprobe's DRAM throughput is served under its own.
TEST(CounterColumns, DramActiveKeepsDcgmsMeaning) {
  const CounterColumn* throughput = find_counter_column("dram_pct", ColumnSource::kCounter);
  const CounterColumn* active = find_counter_column("dram_active_pct", ColumnSource::kCounter);
  ASSERT_NE(throughput, nullptr);
  ASSERT_NE(active, nullptr);
  EXPECT_EQ(throughput->series, "cuprobe_dram_throughput_active");
  EXPECT_EQ(active->series, "DCGM_FI_PROF_DRAM_ACTIVE");
  EXPECT_EQ(active->dcgm_field_id, 1005);
  // issue 35 item 7: served under CUPTI too, from the raw counter of DCGM's meaning (active cycles / elapsed), as
  // DCGM's 0-1 ratio; the CUPTI host tests check the name on every chip and the one-pass fit.
  EXPECT_EQ(active->presets, kPresetTriage | kPresetPipes);
  EXPECT_EQ(active->cupti.gh100, "dram__cycles_active.avg.pct_of_peak_sustained_elapsed");
  EXPECT_EQ(active->cupti.gb100, "dram__cycles_active.avg.pct_of_peak_sustained_elapsed");
  EXPECT_EQ(active->cupti.gb202, "dram__cycles_active.avg.pct_of_peak_sustained_elapsed");
  EXPECT_DOUBLE_EQ(active->series_scale, 0.01);
  EXPECT_NE(throughput->cupti.gh100, active->cupti.gh100);
}

TEST(CounterColumns, PresetsAreTheTablesColumns) {
  for (const std::string& preset : preset_names()) {
    unsigned bit = preset == "triage" ? kPresetTriage : kPresetPipes;
    std::vector<std::string> from_table, entries;
    for (const CounterColumn& c : kCounterColumns) {
      if (c.presets & bit) from_table.emplace_back(c.name);
    }
    for (const PresetEntry& e : preset_entries(preset)) {
      entries.push_back(e.column);
      const CounterColumn* c = find_counter_column(e.column, ColumnSource::kCounter);
      ASSERT_NE(c, nullptr) << e.column;
      EXPECT_EQ(e.description, c->description);
      EXPECT_EQ(e.gh100, c->cupti.gh100);
    }
    EXPECT_EQ(entries, from_table) << preset;
  }
  // `pipes` adds what Hopper exposes only per TPC (the costly sets); `triage` has the rest.
  for (const CounterColumn& c : kCounterColumns) {
    if (!(c.presets & kPresetPipes)) continue;
    bool per_tpc = c.cupti.gh100.starts_with("TPC.");
    EXPECT_EQ((c.presets & kPresetTriage) != 0, !per_tpc) << c.name;
  }
}

}  // namespace
}  // namespace cuprobe
