#include "exporter/exporter_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "common/prometheus_text.h"

namespace cuprobe::test {
namespace {

ExporterSnapshot two_gpus() {
  ExporterSnapshot s;
  s.hostname = "node1";
  s.version = "0.1.0";
  s.now_ns = 10'000'000'000;
  s.window_seconds = 15;
  s.source = "cupti";
  s.counters_available = true;
  s.counters_reason = "ok";
  s.nvml_available = true;
  s.nvml_reason = "ok";
  s.counter_columns = {"tensor_active_pct", "tensor_hmma_pct", "dram_read_bytes_per_s", "some.raw.metric"};
  s.vital_columns = {"power_w", "memory_used_bytes", "clock_event_reason:sw_power_cap", "clock_event_reason:gpu_idle"};
  for (int i = 0; i < 2; ++i) {
    GpuWindowValues g;
    g.labels = {i, "GPU-" + std::to_string(i), "00000000:1" + std::to_string(i) + ":00.0", "nvidia" + std::to_string(i),
                "NVIDIA H200"};
    g.counters = true;
    g.counters_reason = "ok";
    g.counter_means = {93.0 + i, 90.0, 2.1e12, NAN};
    g.counter_rows = 150;
    g.last_sample_end_ns = 9'500'000'000;
    g.vitals = true;
    g.vital_means = {650.25, 80.0 * (1 << 30), 0.5, 0};
    s.gpus.push_back(g);
  }
  return s;
}

const PrometheusSample* find(const PrometheusPage& p, const std::string& name, const std::string& gpu = "",
                             const std::string& key = "", const std::string& value = "") {
  for (const auto& s : p.samples) {
    if (s.name != name) continue;
    if (!gpu.empty() && (!s.label("gpu") || *s.label("gpu") != gpu)) continue;
    if (!key.empty() && (!s.label(key) || *s.label(key) != value)) continue;
    return &s;
  }
  return nullptr;
}

TEST(ExporterMetrics, DcgmNamesUnitsAndLabels) {
  PrometheusPage p = parse_prometheus_text(render_exporter_metrics(two_gpus(), false), "metrics");
  const auto* t = find(p, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "1");
  ASSERT_NE(t, nullptr);
  EXPECT_DOUBLE_EQ(t->value, 0.94);  // a ratio, as DCGM's
  EXPECT_EQ(*t->label("UUID"), "GPU-1");
  EXPECT_EQ(*t->label("pci_bus_id"), "00000000:11:00.0");
  EXPECT_EQ(*t->label("device"), "nvidia1");
  EXPECT_EQ(*t->label("modelName"), "NVIDIA H200");
  EXPECT_EQ(*t->label("Hostname"), "node1");
  EXPECT_EQ(p.types["DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"], "gauge");
  const auto* hmma = find(p, "DCGM_FI_PROF_PIPE_TENSOR_HMMA_ACTIVE", "0");  // DCGM's field 1014
  ASSERT_NE(hmma, nullptr);
  EXPECT_DOUBLE_EQ(hmma->value, 0.9);
  EXPECT_DOUBLE_EQ(find(p, "cuprobe_dram_read_bytes_per_second", "0")->value, 2.1e12);
  EXPECT_EQ(find(p, "cuprobe_pm_metric"), nullptr);  // NaN: left out, never 0
  EXPECT_DOUBLE_EQ(find(p, "DCGM_FI_DEV_POWER_USAGE", "0")->value, 650.25);
  EXPECT_DOUBLE_EQ(find(p, "DCGM_FI_DEV_FB_USED", "0")->value, 80 * 1024);  // MiB
  EXPECT_DOUBLE_EQ(find(p, "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "0")->value, 4);
  EXPECT_DOUBLE_EQ(find(p, "cuprobe_clock_event_reason_active", "0", "reason", "sw_power_cap")->value, 0.5);
  EXPECT_DOUBLE_EQ(find(p, "cuprobe_sample_age_seconds", "0")->value, 0.5);
  EXPECT_DOUBLE_EQ(find(p, "cuprobe_counters_available", "0", "reason", "ok")->value, 1);
  EXPECT_EQ(p.types["cuprobe_lost_samples_total"], "counter");
}

TEST(ExporterMetrics, StateSeriesDriverLabelAndSelection) {
  ExporterSnapshot s = two_gpus();
  s.state_columns = {"energy_mj", "xid_last", "xid_errors", "vgpu_license"};
  for (auto& g : s.gpus) g.state_values = {5e6, 0, 0, NAN};
  s.driver_version = "570.1";
  PrometheusPage p = parse_prometheus_text(render_exporter_metrics(s, false), "metrics");
  const auto* energy = find(p, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "1");
  ASSERT_NE(energy, nullptr);
  EXPECT_DOUBLE_EQ(energy->value, 5e6);
  EXPECT_EQ(*energy->label("DCGM_FI_DRIVER_VERSION"), "570.1");
  EXPECT_EQ(p.types["DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"], "counter");
  EXPECT_DOUBLE_EQ(find(p, "DCGM_FI_DEV_XID_ERRORS", "0")->value, 0);
  EXPECT_EQ(p.types["cuprobe_xid_errors_total"], "counter");
  EXPECT_EQ(find(p, "DCGM_FI_DEV_VGPU_LICENSE_STATUS"), nullptr) << "not applicable: absent, never 0";
  // OpenMetrics: DCGM's counters have no _total, so they are `unknown` there.
  std::string om = render_exporter_metrics(s, true);
  EXPECT_NE(om.find("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION unknown\n"), std::string::npos) << om;
  EXPECT_NE(om.find("# TYPE cuprobe_xid_errors counter\n"), std::string::npos) << om;
  // -f: only the DCGM series it lists; the driver label only when it lists DCGM_FI_DRIVER_VERSION.
  s.selection = std::make_shared<SeriesSelection>(
      parse_collectors_text("DCGM_FI_DEV_XID_ERRORS, gauge, last XID\n", "counters.csv"));
  p = parse_prometheus_text(render_exporter_metrics(s, false), "metrics");
  EXPECT_NE(find(p, "DCGM_FI_DEV_XID_ERRORS", "0"), nullptr);
  EXPECT_EQ(find(p, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"), nullptr);
  EXPECT_EQ(find(p, "DCGM_FI_DEV_POWER_USAGE"), nullptr);
  EXPECT_NE(find(p, "cuprobe_xid_errors_total", "0"), nullptr);
  EXPECT_FALSE(find(p, "DCGM_FI_DEV_XID_ERRORS", "0")->label("DCGM_FI_DRIVER_VERSION"));
}

TEST(ExporterMetrics, MigInstancesGetTheirOwnSeriesAndMemory) {
  ExporterSnapshot s = two_gpus();
  GpuInstance a;
  a.id = 9;
  a.profile = "1g.18gb";
  a.memory_used_bytes = 1024.0 * 1024 * 1024;
  GpuInstance b = a;
  b.id = 2;
  b.profile = "3g.71gb";
  b.memory_used_bytes = 2048.0 * 1024 * 1024;
  s.gpus[0].instances = {{a, {}}, {b, {"train-0", "ml", "worker"}}};
  PrometheusPage p = parse_prometheus_text(render_exporter_metrics(s, false), "metrics");
  const auto* used9 = find(p, "DCGM_FI_DEV_FB_USED", "0", "GPU_I_ID", "9");
  const auto* used2 = find(p, "DCGM_FI_DEV_FB_USED", "0", "GPU_I_ID", "2");
  ASSERT_NE(used9, nullptr);
  ASSERT_NE(used2, nullptr);
  EXPECT_DOUBLE_EQ(used9->value, 1024);
  EXPECT_EQ(*used9->label("GPU_I_PROFILE"), "1g.18gb");
  EXPECT_DOUBLE_EQ(used2->value, 2048);
  EXPECT_EQ(*used2->label("pod"), "train-0");
  EXPECT_EQ(*used2->label("namespace"), "ml");
  EXPECT_EQ(*used2->label("container"), "worker");
  // issue 35 item 7: what NVML gives only for the whole GPU is served once, on the GPU, never repeated per
  // instance (a dashboard summing the instances would count it twice); memory only per instance.
  EXPECT_EQ(find(p, "DCGM_FI_DEV_POWER_USAGE", "0", "GPU_I_ID", "2"), nullptr);
  EXPECT_EQ(find(p, "DCGM_FI_DEV_POWER_USAGE", "0", "GPU_I_ID", "9"), nullptr);
  int power0 = 0, fb0 = 0, tensor0 = 0;
  for (const auto& sample : p.samples) {
    bool gpu0 = sample.label("gpu") && *sample.label("gpu") == "0";
    if (gpu0 && sample.name == "DCGM_FI_DEV_POWER_USAGE") {
      ++power0;
      EXPECT_FALSE(sample.label("GPU_I_ID"));
      EXPECT_DOUBLE_EQ(sample.value, 650.25);
    }
    if (gpu0 && sample.name == "DCGM_FI_DEV_FB_USED") {
      ++fb0;
      EXPECT_TRUE(sample.label("GPU_I_ID")) << "the GPU's own total would double a sum over instances";
    }
    if (gpu0 && sample.name == "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE") {
      ++tensor0;
      EXPECT_FALSE(sample.label("GPU_I_ID"));
    }
  }
  EXPECT_EQ(power0, 1);
  EXPECT_EQ(fb0, 2);
  EXPECT_EQ(tensor0, 1);
  EXPECT_EQ(find(p, "DCGM_FI_DEV_FB_USED", "1", "GPU_I_ID", "9"), nullptr);
  EXPECT_NE(find(p, "DCGM_FI_DEV_FB_USED", "1"), nullptr);
}

// dcgm-exporter (internal/pkg/collector: toMetric) labels DCGM_FI_DEV_XID_ERRORS with err_code (the value) and
// err_msg (xidErrCodeToText[code], "Unknown Error" outside it).
TEST(ExporterMetrics, XidCarriesDcgmExportersErrCodeAndErrMsg) {
  ExporterSnapshot s = two_gpus();
  s.state_columns = {"xid_last"};
  s.gpus[0].state_values = {0};
  s.gpus[1].state_values = {48};
  PrometheusPage p = parse_prometheus_text(render_exporter_metrics(s, false), "metrics");
  const auto* none = find(p, "DCGM_FI_DEV_XID_ERRORS", "0");
  const auto* ecc = find(p, "DCGM_FI_DEV_XID_ERRORS", "1");
  ASSERT_NE(none, nullptr);
  ASSERT_NE(ecc, nullptr);
  EXPECT_EQ(*none->label("err_code"), "0");
  EXPECT_EQ(*none->label("err_msg"), "No Error");
  EXPECT_EQ(*ecc->label("err_code"), "48");
  EXPECT_EQ(*ecc->label("err_msg"), "Double Bit ECC Error");
  EXPECT_DOUBLE_EQ(ecc->value, 48);
  s.gpus[1].state_values = {255};
  p = parse_prometheus_text(render_exporter_metrics(s, false), "metrics");
  EXPECT_EQ(*find(p, "DCGM_FI_DEV_XID_ERRORS", "1")->label("err_msg"), "Unknown Error");
}

TEST(ExporterMetrics, UnavailableCountersDisappearAndSayWhyWhileNvmlFlows) {
  ExporterSnapshot s = two_gpus();
  s.counters_available = false;
  s.counters_reason = "busy";
  for (auto& g : s.gpus) {
    g.counters = false;
    g.counters_reason = "busy";
  }
  PrometheusPage p = parse_prometheus_text(render_exporter_metrics(s, false), "metrics");
  EXPECT_EQ(find(p, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"), nullptr);
  EXPECT_EQ(find(p, "DCGM_FI_PROF_PIPE_TENSOR_HMMA_ACTIVE"), nullptr);
  EXPECT_EQ(find(p, "cuprobe_sample_age_seconds"), nullptr);
  const auto* a = find(p, "cuprobe_counters_available", "1");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->value, 0);
  EXPECT_EQ(*a->label("reason"), "busy");
  EXPECT_NE(find(p, "DCGM_FI_DEV_POWER_USAGE", "1"), nullptr);
}

TEST(ExporterMetrics, WithoutGpusItSaysSo) {
  ExporterSnapshot s;
  s.hostname = "h";
  s.source = "cupti";
  s.counters_reason = "no_driver";
  s.nvml_reason = "unavailable";
  PrometheusPage p = parse_prometheus_text(render_exporter_metrics(s, false), "metrics");
  EXPECT_EQ(find(p, "cuprobe_gpus")->value, 0);
  EXPECT_EQ(find(p, "cuprobe_nvml_available", "", "reason", "unavailable")->value, 0);
  EXPECT_EQ(find(p, "cuprobe_counters_available", "", "reason", "no_driver")->value, 0);
}

TEST(ExporterMetrics, OpenMetricsWhenAsked) {
  EXPECT_TRUE(accepts_openmetrics("application/openmetrics-text; version=1.0.0,text/plain;q=0.5"));
  EXPECT_FALSE(accepts_openmetrics("text/plain"));
  std::string om = render_exporter_metrics(two_gpus(), true);
  EXPECT_EQ(om.substr(om.size() - 6), "# EOF\n");
  EXPECT_NE(om.find("# TYPE cuprobe_lost_samples counter\n"), std::string::npos);
  EXPECT_NE(om.find("\ncuprobe_lost_samples_total{"), std::string::npos);
  std::string text = render_exporter_metrics(two_gpus(), false);
  EXPECT_EQ(text.find("# EOF"), std::string::npos);
  EXPECT_NE(text.find("# TYPE cuprobe_lost_samples_total counter\n"), std::string::npos);
  EXPECT_NE(std::string(exporter_content_type(true)).find("openmetrics"), std::string::npos);
  EXPECT_NE(std::string(exporter_content_type(false)).find("version=0.0.4"), std::string::npos);
}

}  // namespace
}  // namespace cuprobe::test
