// rocprofv3's JSON output into the model (tests/data/rocprofv3/matrix_transpose_results.json: the SDK's own
// MatrixTranspose test program, written to source/docs/rocprofv3-schema.json).
#include "import/rocprofv3_json/rocprofv3_importer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "import/load_profiles.h"
#include "import/trace_format.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe {
namespace {

std::string fixture_path() { return std::string(CUPROBE_TEST_DATA_DIR) + "/rocprofv3/matrix_transpose_results.json"; }

Profile import_text(const std::string& text) {
  auto source = memory_byte_source(text, 7);  // short reads
  return import_rocprofv3_json(*source, "r.json");
}

std::string import_error(const std::string& text) {
  try {
    import_text(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// One process: the string tables, then `records` as its buffer_records.
std::string process(const std::string& records,
                    const std::string& symbols = R"([{"kernel_id": 1, "formatted_kernel_name": "k"}])") {
  return R"({"rocprofiler-sdk-tool": [{"metadata": {"pid": 5},
    "agents": [{"id": {"handle": 9}, "type": 2, "name": "gfx942"}],
    "strings": {"buffer_records": [{"kind": "NONE", "operations": []}, {"kind": "HIP_RUNTIME_API",
                 "operations": ["none", "hipLaunchKernel"]}, {"kind": "KERNEL_DISPATCH", "operations": []}]},
    "kernel_symbols": )" +
         symbols + R"(, "buffer_records": )" + records + "}]}";
}

TEST(Rocprofv3Importer, MatrixTransposeIntoTheModel) {
  Profile p = import_rocprofv3_json(fixture_path());
  EXPECT_EQ(p.source, "rocprofv3");
  ASSERT_EQ(p.devices.size(), 1u);
  EXPECT_EQ(p.devices[0].id, 0);
  EXPECT_EQ(p.devices[0].name, "AMD Instinct MI300X");
  EXPECT_EQ(p.devices[0].sm_count, 304);
  std::size_t kernels = 0, uploads = 0, downloads = 0;
  for (const GpuActivity& a : p.gpu) {
    EXPECT_EQ(a.device, 0);
    EXPECT_EQ(a.pid, 41235);
    if (a.kind == GpuActivityKind::kKernel) {
      ++kernels;
      EXPECT_EQ(p.name_of(a.name), "matrixTranspose(float*, float*, int)");
      EXPECT_EQ(a.grid[0], 256);  // 1024 work-items in workgroups of 4
      EXPECT_EQ(a.grid[1], 256);
      EXPECT_EQ(a.block[0], 4);
      EXPECT_EQ(a.duration(), 112'000);
    } else {
      ASSERT_EQ(a.kind, GpuActivityKind::kMemcpy);
      EXPECT_EQ(a.bytes, 4194304);
      uploads += a.memcpy_kind == MemcpyKind::kHtoD;
      downloads += a.memcpy_kind == MemcpyKind::kDtoH;
      EXPECT_EQ(p.name_of(a.name), memcpy_activity_name(a.memcpy_kind));
    }
  }
  EXPECT_EQ(kernels, 2u);
  EXPECT_EQ(uploads, 2u);
  EXPECT_EQ(downloads, 2u);
  EXPECT_TRUE(std::is_sorted(p.gpu.begin(), p.gpu.end(),
                             [](const GpuActivity& a, const GpuActivity& b) { return a.start < b.start; }));
  std::size_t calls = 0, launches = 0, ranges = 0;
  for (const CpuRange& r : p.cpu) {
    EXPECT_EQ(r.pid, 41235);
    if (r.kind == CpuRangeKind::kRuntime) {
      ++calls;
      if (p.name_of(r.name) != "hipLaunchKernel") continue;
      ++launches;  // the kernel it launched carries its correlation id
      EXPECT_TRUE(std::any_of(p.gpu.begin(), p.gpu.end(), [&](const GpuActivity& a) {
        return a.correlation == r.correlation && a.kind == GpuActivityKind::kKernel && a.start > r.end;
      }));
    } else {
      ASSERT_EQ(r.kind, CpuRangeKind::kAnnotation);
      ++ranges;
      EXPECT_TRUE(p.name_of(r.name) == "main" || p.name_of(r.name) == "iteration") << p.name_of(r.name);
    }
  }
  EXPECT_EQ(calls, 9u);
  EXPECT_EQ(launches, 2u);
  EXPECT_EQ(ranges, 3u);
  EXPECT_EQ(p.stats.problems(), 0);
}

TEST(Rocprofv3Importer, LoadedByTheSameEntryAsEveryTrace) {
  std::vector<Profile> ranks = load_profiles({fixture_path()});
  ASSERT_EQ(ranks.size(), 1u);
  EXPECT_EQ(ranks[0].source, "rocprofv3");
  EXPECT_EQ(ranks[0].gpu.size(), 6u);
}

// Which files are rocprofv3's is trace_format's decision (tests/import/trace_format_test.cpp): the fixture's.
TEST(Rocprofv3Importer, TheFixtureIsSniffedAsRocprofv3) {
  EXPECT_EQ(sniff_trace_format(fixture_path()).format, TraceFormat::kRocprofv3Json);
  EXPECT_EQ(sniff_trace_format(std::string(CUPROBE_TEST_DATA_DIR) + "/format_begin_end.json").format,
            TraceFormat::kKinetoJson);
}

TEST(Rocprofv3Importer, ProblemsAreCountedNotFatal) {
  Profile p = import_text(process(R"({"kernel_dispatch": [
      {"kind": 2, "correlation_id": {"internal": 3}, "start_timestamp": 100, "end_timestamp": 200,
       "dispatch_info": {"agent_id": {"handle": 9}, "queue_id": {"handle": 1}, "kernel_id": 7}},
      {"kind": 2, "correlation_id": {"internal": 4}, "start_timestamp": 300,
       "dispatch_info": {"agent_id": {"handle": 9}, "kernel_id": 1}},
      {"kind": 2, "correlation_id": {"internal": 5}, "start_timestamp": 500, "end_timestamp": 400,
       "dispatch_info": {"agent_id": {"handle": 9}, "kernel_id": 1}}],
    "hip_api": [{"kind": 1, "operation": 1, "correlation_id": {"internal": 3}, "start_timestamp": 10,
                 "end_timestamp": 20, "thread_id": 6}],
    "hsa_api": [{"anything": "skipped"}]})"));
  ASSERT_EQ(p.gpu.size(), 2u);
  EXPECT_EQ(p.name_of(p.gpu[0].name), "<unknown kernel 7>");
  EXPECT_EQ(p.gpu[0].stream, 1);      // the queue, without a stream_id
  EXPECT_EQ(p.gpu[1].duration(), 0);  // reversed: end set to start
  ASSERT_EQ(p.cpu.size(), 1u);
  EXPECT_EQ(p.name_of(p.cpu[0].name), "hipLaunchKernel");
  EXPECT_EQ(p.cpu[0].tid, 6);
  auto count = [&](ImportStat s) {
    for (const auto& line : p.stats.counted()) {
      if (line.info == &import_stat_info(s)) return line.value->count;
    }
    return std::int64_t{0};
  };
  EXPECT_EQ(count(ImportStat::kUnknownNameId), 1);
  EXPECT_EQ(count(ImportStat::kEventMissingField), 1);
  EXPECT_EQ(count(ImportStat::kReversedInterval), 1);
}

TEST(Rocprofv3Importer, KernelSymbolsAsAnObjectKeyedById) {
  Profile p = import_text(process(R"({"kernel_dispatch": [{"kind": 2, "start_timestamp": 1, "end_timestamp": 2,
      "dispatch_info": {"kernel_id": 4}}]})",
                                  R"({"4": {"kernel_name": "_Z4gemmv.kd"}})"));
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.name_of(p.gpu[0].name), "_Z4gemmv");  // the mangled name, without ".kd", when nothing better
  EXPECT_EQ(p.gpu[0].correlation, -1);
}

// Issue 39: grid + workgroup - 1 overflowed for a grid of INT64_MAX (UBSan); negatives were kept.
TEST(Rocprofv3Importer, HugeAndNegativeGridsAreClamped) {
  Profile p = import_text(process(R"({"kernel_dispatch": [{"kind": 2, "start_timestamp": 1, "end_timestamp": 2,
      "dispatch_info": {"kernel_id": 1, "grid_size": {"x": 9223372036854775807, "y": -5, "z": 7},
                        "workgroup_size": {"x": 4, "y": 4, "z": 2}}}]})"));
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].grid[0], INT32_MAX);
  EXPECT_EQ(p.gpu[0].grid[1], 0);
  EXPECT_EQ(p.gpu[0].grid[2], 4);  // 7 work-items in workgroups of 2: 4 blocks
}

TEST(Rocprofv3Importer, BadStructureIsOneLineError) {
  EXPECT_NE(import_error(R"({"traceEvents": []})").find("no \"rocprofiler-sdk-tool\" array"), std::string::npos);
  EXPECT_NE(import_error(R"({"rocprofiler-sdk-tool": {}})").find("must be an array"), std::string::npos);
  EXPECT_NE(import_error(process(R"([])")).find("\"buffer_records\" must be an object"), std::string::npos);
  EXPECT_NE(import_error(process(R"({"kernel_dispatch": [1]})")).find("not an object"), std::string::npos);
  std::string whole = process(R"({"kernel_dispatch": []})");
  EXPECT_NE(import_error(whole.substr(0, whole.size() - 3)), "no error");  // truncated
  EXPECT_EQ(import_error(whole), "no error");
}

TEST(Rocprofv3Importer, ProcessesBecomeRanks) {
  std::string one = R"({"metadata": {"pid": PID}, "agents": [{"id": {"handle": 9}, "type": 2}],
    "strings": {"buffer_records": [{"kind": "KERNEL_DISPATCH", "operations": []}]},
    "kernel_symbols": [{"kernel_id": 1, "formatted_kernel_name": "k"}],
    "buffer_records": {"kernel_dispatch": [{"kind": 0, "start_timestamp": 1, "end_timestamp": 2,
      "correlation_id": {"internal": 1}, "dispatch_info": {"agent_id": {"handle": 9}, "kernel_id": 1}}]}})";
  auto with_pid = [&](const char* pid) {
    std::string s = one;
    s.replace(s.find("PID"), 3, pid);
    return s;
  };
  std::string path = test::temp_dir() + "/two_processes_results.json";  // removed when the test ends
  std::ofstream(path) << R"({"rocprofiler-sdk-tool": [)" << with_pid("11") << "," << with_pid("12") << "]}";
  std::vector<Profile> ranks = load_trace_file(path);
  ASSERT_EQ(ranks.size(), 2u);
  EXPECT_EQ(ranks[0].gpu.size(), 1u);
  EXPECT_EQ(ranks[1].gpu.size(), 1u);
  EXPECT_EQ(ranks[1].gpu[0].pid, 12);
}

}  // namespace
}  // namespace cuprobe
