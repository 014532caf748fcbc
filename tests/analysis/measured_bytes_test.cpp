#include "analysis/measured_bytes.h"

#include <gtest/gtest.h>

#include <cmath>

#include "analysis/analyze.h"
#include "import/run_file/run_file_importer.h"
#include "store/run_file_schema.h"
#include "store/run_file_writer.h"
#include "support/json_output.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr const char* kStream = "stream_kernel";  // fills 90% of each sample it overlaps
constexpr const char* kTiny = "tiny_kernel";      // 2 us in each 1 ms sample

struct Sample {
  std::int64_t from_ms, to_ms;  // one sample per millisecond in [from, to)
  double read, write, pct;      // bytes/s, bytes/s, % of peak
};

// A run file on an H200 with 1 ms counter samples: `stream_kernel` runs 0.9 ms of
// each of the first 10 samples, `tiny_kernel` 2 us of each of the next 10, and a
// 5 ms device-to-device copy of 10 GB fills the last 5. `metrics` picks the columns
// written ("bytes": the read and write byte rates, "pct": DRAM % of peak, "both").
std::string run_file(const std::string& metrics, const std::string& device = "NVIDIA H200") {
  std::string path = test::temp_dir() + "/counters.cuprobe";
  RunFileWriter w(path, false);
  w.process_started(1, 0, "python decode.py", 0, 130001);
  w.add_device({.id = 0, .name = device, .sm_count = 132, .compute_major = 9, .memory_bytes = 150109323264});
  const Sample samples[] = {{0, 10, 2e12, 1e12, 60}, {10, 20, 1e11, 0, 2}, {20, 25, 1.5e12, 1.5e12, 62.5}};
  for (const Sample& s : samples) {
    for (std::int64_t ms = s.from_ms; ms < s.to_ms; ++ms) {
      if (metrics != "pct") {
        w.add_sample(0, ms * kMs, (ms + 1) * kMs, "dram_read_bytes_per_s", s.read);
        w.add_sample(0, ms * kMs, (ms + 1) * kMs, "dram_write_bytes_per_s", s.write);
      }
      if (metrics != "bytes") w.add_sample(0, ms * kMs, (ms + 1) * kMs, "dram_pct", s.pct);
      w.add_sample(0, ms * kMs, (ms + 1) * kMs, "sm_active_pct", 50);
    }
  }
  auto kernel = [&](const char* name, std::int64_t start, std::int64_t end) {
    RunKernelRow k;
    k.pid = 1;
    k.device = 0;
    k.stream = 7;
    k.start_ns = start;
    k.end_ns = end;
    k.name_id = w.name_id(name);
    w.add_kernel(k);
  };
  for (std::int64_t ms = 0; ms < 10; ++ms) kernel(kStream, ms * kMs + kMs / 20, ms * kMs + kMs * 19 / 20);
  for (std::int64_t ms = 10; ms < 20; ++ms) kernel(kTiny, ms * kMs + kMs / 2, ms * kMs + kMs / 2 + 2000);
  RunCopyRow copy;
  copy.pid = 1;
  copy.device = 0;
  copy.stream = 7;
  copy.start_ns = 20 * kMs;
  copy.end_ns = 25 * kMs;
  copy.kind = "DtoD";
  copy.bytes = 10'000'000'000;
  w.add_memcpy(copy);
  w.process_ended(1, 30 * kMs, "exited", 0);
  w.finish(kRunStatusComplete);
  return path;
}

const KernelRow& row(const RankAnalysis& a, const std::string& name) {
  for (const auto& k : a.kernels) {
    if (k.name == name) return k;
  }
  ADD_FAILURE() << "no kernel row " << name;
  static const KernelRow none;
  return none;
}

RankAnalysis analyzed(const std::string& path) {
  std::vector<Profile> ps;
  ps.push_back(import_run_file(path));
  return analyze_profiles(ps, {}).ranks.at(0);
}

TEST(MeasuredBytes, ByteRatesTimesTheTimeTheKernelsCallsFilledTheirSamples) {
  RankAnalysis a = analyzed(run_file("both"));
  const KernelRow& stream = row(a, kStream);
  // (2 + 1) TB/s while it ran, 10 calls of 0.9 ms.
  ASSERT_TRUE(stream.dram_bytes_measured);
  EXPECT_NEAR(*stream.dram_bytes_measured, 3e12 * 9e-3, 1e3);
  ASSERT_TRUE(stream.work);
  EXPECT_EQ(stream.work->source, "counters");
  EXPECT_NEAR(stream.work->bytes, 27e9, 1e3);
  EXPECT_EQ(stream.work->calls, 10);
  EXPECT_NEAR(stream.work->time_ms, 9.0, 1e-9);
  EXPECT_NEAR(stream.work->achieved_tbps, 3.0, 1e-9);
  EXPECT_EQ(stream.work->flops, 0);
  ASSERT_TRUE(stream.work->peak_share);
  EXPECT_NEAR(*stream.work->peak_share, 3.0 / 4.8, 1e-9);  // of the memory peak: FLOPs unknown
  EXPECT_EQ(stream.work->bound, "");
  // 2 us of each 1 ms sample: its readings are other work or idle time. Nothing invented.
  const KernelRow& tiny = row(a, kTiny);
  EXPECT_FALSE(tiny.dram_bytes_measured);
  EXPECT_FALSE(tiny.work);
  // The copy keeps its own byte count (read and written); the measurement stands beside it.
  const KernelRow& copy = row(a, "Memcpy DtoD");
  ASSERT_TRUE(copy.work);
  EXPECT_EQ(copy.work->source, "memcpy");
  EXPECT_DOUBLE_EQ(copy.work->bytes, 20e9);
  ASSERT_TRUE(copy.dram_bytes_measured);
  EXPECT_NEAR(*copy.dram_bytes_measured, 3e12 * 5e-3, 1e3);
  // The counter table still holds the top kernels only.
  EXPECT_LE(a.counters.by_kernel.size(), 10u);
}

TEST(MeasuredBytes, ThePercentOfPeakNeedsTheGpusMemoryBandwidth) {
  RankAnalysis a = analyzed(run_file("pct"));
  const KernelRow& stream = row(a, kStream);
  ASSERT_TRUE(stream.dram_bytes_measured);
  EXPECT_NEAR(*stream.dram_bytes_measured, 0.60 * 4.8e12 * 9e-3, 1e3);
  EXPECT_NEAR(stream.work->achieved_tbps, 0.60 * 4.8, 1e-9);
  // A GPU not in the table of peaks: the percentage gives no bytes.
  RankAnalysis unknown = analyzed(run_file("pct", "Some Future GPU"));
  EXPECT_FALSE(row(unknown, kStream).dram_bytes_measured);
  EXPECT_FALSE(row(unknown, kStream).work);
}

TEST(MeasuredBytes, RatesFromBytesCountersFirstThenPercentAndRawNames) {
  DevicePeaks h200;
  h200.memory_tbps = 4.8;
  EXPECT_EQ(dram_bytes_per_s({"dram_pct", "dram_read_bytes_per_s", "dram_write_bytes_per_s"}, {50, 1e12, 2e11}, h200),
            1.2e12);
  EXPECT_EQ(dram_bytes_per_s({"dram__bytes_read.sum.per_second", "dram__bytes_write.sum.per_second"}, {1e12, 1e11},
                             std::nullopt),
            1.1e12);
  EXPECT_DOUBLE_EQ(*dram_bytes_per_s({"dram__throughput.avg.pct_of_peak_sustained_elapsed"}, {25}, h200), 1.2e12);
  // The read rate alone is not the traffic; no reading (NaN) is none.
  EXPECT_FALSE(dram_bytes_per_s({"dram_read_bytes_per_s"}, {1e12}, h200));
  EXPECT_FALSE(dram_bytes_per_s({"dram_pct"}, {std::nan("")}, h200));
  EXPECT_FALSE(dram_bytes_per_s({"sm_active_pct"}, {50}, h200));
}

TEST(MeasuredBytes, JsonAndTextSayWhereTheBytesCameFrom) {
  std::string path = run_file("bytes");
  auto r = test::run_cuprobe({"analyze", "--json", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = test::json_stdout(r);
  bool seen_stream = false, seen_tiny = false;
  for (const auto& k : j["ranks"][0]["kernels"]) {
    if (k["name"] == kStream) {
      seen_stream = true;
      EXPECT_NEAR(k["dram_bytes_measured"].get<double>(), 27e9, 1e3);
      EXPECT_NEAR(k["bytes"].get<double>(), 27e9, 1e3);
      EXPECT_NEAR(k["achieved_tbps"].get<double>(), 3.0, 1e-9);
      EXPECT_EQ(k["work_source"], "counters");
      EXPECT_TRUE(k["bound"].is_null());
    } else if (k["name"] == kTiny) {
      seen_tiny = true;
      EXPECT_TRUE(k["dram_bytes_measured"].is_null());
      EXPECT_TRUE(k["bytes"].is_null());
    } else if (k["name"] == "Memcpy DtoD") {
      EXPECT_EQ(k["work_source"], "memcpy");
      EXPECT_NEAR(k["dram_bytes_measured"].get<double>(), 15e9, 1e3);
    }
  }
  EXPECT_TRUE(seen_stream && seen_tiny);
  r = test::run_cuprobe({"analyze", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t line = r.out.find("\n  stream_kernel", r.out.find("work of the top kernels"));
  ASSERT_NE(line, std::string::npos) << r.out;
  std::string text = r.out.substr(line, r.out.find('\n', line + 1) - line);
  EXPECT_NE(text.find("27.0 GB  counters"), std::string::npos) << text;
  // Beside the copy's own count, what the counters measured while it ran.
  line = r.out.find("\n  Memcpy DtoD", r.out.find("work of the top kernels"));
  ASSERT_NE(line, std::string::npos) << r.out;
  text = r.out.substr(line, r.out.find('\n', line + 1) - line);
  EXPECT_NE(text.find("20.0 GB  memcpy          15.0 GB"), std::string::npos) << text;
  EXPECT_NE(r.out.find("DRAM measured"), std::string::npos);
  EXPECT_NE(r.out.find("counters = DRAM bytes measured"), std::string::npos);
}

}  // namespace
}  // namespace cuprobe
