#include "report/chrome_export.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

namespace cuprobe {
namespace {

Profile small_profile() {
  Profile p;
  p.source = "cuprobe-run";
  GpuActivity k;
  k.name = p.strings.intern("gemm \"tiled\"\n<bf16>");
  k.start = 1'700'000'000'000'001'000;
  k.end = k.start + 2500;
  k.device = 1;
  k.stream = 7;
  k.grid[0] = 4;
  k.graph_id = 9;
  p.gpu.push_back(k);
  GpuActivity m;
  m.kind = GpuActivityKind::kMemcpy;
  m.memcpy_kind = MemcpyKind::kHtoD;
  m.name = p.strings.intern("Memcpy HtoD");
  m.start = k.start - 500;
  m.end = k.start;
  m.bytes = 1024;
  m.device = 1;
  p.gpu.push_back(m);
  CpuRange r;
  r.kind = CpuRangeKind::kAnnotation;
  r.name = p.strings.intern("step");
  r.start = k.start - 1000;
  r.end = k.end;
  r.pid = 42;
  r.tid = 43;
  p.cpu.push_back(r);
  CounterSample c;
  c.device = 1;
  c.start = k.start;
  c.end = k.end;
  c.metric = p.strings.intern("tensor_active_pct");
  c.value = 93.5;
  p.counters.push_back(c);
  DeviceInfo d;
  d.id = 1;
  d.name = "NVIDIA H200";
  p.devices.push_back(d);
  return p;
}

TEST(ChromeExport, WritesValidJsonWithRelativeMicroseconds) {
  Profile p = small_profile();
  std::ostringstream out;
  write_chrome_trace(p, out);
  auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["otherData"]["base_time_ns"].get<std::int64_t>(), 1'700'000'000'000'000'000);
  const auto& events = j["traceEvents"];
  int kernels = 0, memcpys = 0, annotations = 0, counters = 0, names = 0;
  for (const auto& e : events) {
    std::string ph = e["ph"];
    if (ph == "X" && e["cat"] == "kernel") {
      ++kernels;
      EXPECT_EQ(e["name"], "gemm \"tiled\"\n<bf16>");
      EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 1.0);
      EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 2.5);
      EXPECT_EQ(e["args"]["graph id"], 9);
      EXPECT_EQ(e["tid"], 7);
    } else if (ph == "X" && e["cat"] == "gpu_memcpy") {
      ++memcpys;
      EXPECT_EQ(e["args"]["kind"], "HtoD");
      EXPECT_EQ(e["args"]["bytes"], 1024);
    } else if (ph == "X" && e["cat"] == "user_annotation") {
      ++annotations;
      EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 0.0);
      EXPECT_EQ(e["pid"], 42);
    } else if (ph == "C") {
      ++counters;
      EXPECT_DOUBLE_EQ(e["args"]["value"].get<double>(), 93.5);
    } else if (ph == "M") {
      ++names;
      EXPECT_EQ(e["args"]["name"], "GPU 1 (NVIDIA H200)");
    }
  }
  EXPECT_EQ(kernels, 1);
  EXPECT_EQ(memcpys, 1);
  EXPECT_EQ(annotations, 1);
  EXPECT_EQ(counters, 1);
  EXPECT_EQ(names, 1);
}

TEST(ChromeExport, WholeGraphLaunchesHaveTheirOwnCategoryAndNoBytes) {
  Profile p;
  GpuActivity g;
  g.kind = GpuActivityKind::kGraph;
  g.name = p.strings.intern("CUDA graph 3 (whole launch)");
  g.start = 1000;
  g.end = 901000;
  g.device = 0;
  g.graph_id = 3;
  p.gpu.push_back(g);
  std::ostringstream out;
  write_chrome_trace(p, out);
  auto j = nlohmann::json::parse(out.str());
  int graphs = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] != "X") continue;
    ++graphs;
    EXPECT_EQ(e["cat"], "cuda_graph");
    EXPECT_EQ(e["args"]["graph id"], 3);
    EXPECT_FALSE(e["args"].contains("bytes"));
    EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 900.0);
  }
  EXPECT_EQ(graphs, 1);
}

TEST(ChromeExport, EmptyProfileIsStillValidJson) {
  Profile p;
  std::ostringstream out;
  write_chrome_trace(p, out);
  auto j = nlohmann::json::parse(out.str());
  EXPECT_TRUE(j["traceEvents"].empty());
}

}  // namespace
}  // namespace cuprobe
