#include "import/nsys_sqlite/nsys_importer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/analyze.h"
#include "common/error.h"
#include "import/load_profiles.h"
#include "store/sqlite_db.h"
#include "support/nsys_fixture.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

std::int64_t count_kind(const Profile& p, GpuActivityKind kind) {
  return std::count_if(p.gpu.begin(), p.gpu.end(), [&](const GpuActivity& a) { return a.kind == kind; });
}

std::vector<std::string> names_of(const Profile& p, CpuRangeKind kind) {
  std::vector<std::string> out;
  for (const auto& r : p.cpu) {
    if (r.kind == kind) out.emplace_back(p.name_of(r.name));
  }
  return out;
}

std::string load_error(const std::string& path) {
  try {
    load_profile(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(NsysImporter, ReadsKernelsCopiesMemsetsCallsAndNvtxOfOneProcess) {
  std::string path = test::nsys_fixture("nsys_decode_small.sql");
  Profile p = load_profile(path);
  EXPECT_EQ(p.source, "nsys");
  EXPECT_EQ(p.file, path);
  EXPECT_FALSE(p.rank);
  EXPECT_EQ(count_kind(p, GpuActivityKind::kKernel), 18);
  EXPECT_EQ(count_kind(p, GpuActivityKind::kMemcpy), 7);
  EXPECT_EQ(count_kind(p, GpuActivityKind::kMemset), 6);
  ASSERT_EQ(p.devices.size(), 1u);
  EXPECT_EQ(p.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(p.devices[0].id, 0);
  EXPECT_EQ(p.devices[0].sm_count, 132);
  EXPECT_EQ(p.devices[0].compute_major, 9);
  EXPECT_EQ(p.devices[0].memory_bytes, 150109323264);

  // Copies and memsets carry the names every importer gives them (model/kinds.h).
  std::set<std::string> copy_names;
  for (const auto& a : p.gpu) {
    if (a.kind == GpuActivityKind::kMemcpy) copy_names.insert(std::string(p.name_of(a.name)));
    if (a.kind == GpuActivityKind::kMemset) {
      EXPECT_EQ(p.name_of(a.name), "Memset");
      EXPECT_EQ(a.bytes, 4096);
    }
  }
  EXPECT_EQ(copy_names, (std::set<std::string>{"Memcpy HtoD", "Memcpy DtoH"}));
  const GpuActivity& first = p.gpu.front();
  EXPECT_EQ(first.memcpy_kind, MemcpyKind::kHtoD);
  EXPECT_EQ(first.bytes, 1 << 20);
  EXPECT_EQ(first.start, 1002000);
  EXPECT_EQ(first.end, 1082000);

  // Kernels: the demangled name, launch shape, registers, shared memory, and
  // the launch call they came from (correlationId).
  const GpuActivity& gemm = p.gpu[1];
  EXPECT_TRUE(p.name_of(gemm.name).starts_with("sm90_xmma_gemm_bf16bf16"));
  EXPECT_EQ(gemm.grid[0], 132);
  EXPECT_EQ(gemm.block[0], 256);
  EXPECT_EQ(gemm.registers_per_thread, 96);
  EXPECT_EQ(gemm.shared_memory_bytes, 49152);
  EXPECT_EQ(gemm.stream, 7);
  EXPECT_EQ(gemm.device, 0);
  auto launch = std::find_if(p.cpu.begin(), p.cpu.end(), [&](const CpuRange& r) {
    return r.kind == CpuRangeKind::kRuntime && r.correlation == gemm.correlation;
  });
  ASSERT_NE(launch, p.cpu.end());
  EXPECT_EQ(p.name_of(launch->name), "cudaLaunchKernel");  // nsys's _v7000 cut
  EXPECT_EQ(launch->pid, 4242);
  EXPECT_EQ(launch->tid, 4243);

  // NVTX: the six steps and the registered-string range; the mark is no range,
  // the unclosed range is counted.
  std::vector<std::string> nvtx = names_of(p, CpuRangeKind::kAnnotation);
  EXPECT_EQ(std::count(nvtx.begin(), nvtx.end(), "execute_model"), 6);
  EXPECT_EQ(std::count(nvtx.begin(), nvtx.end(), "sampler"), 1);
  EXPECT_EQ(nvtx.size(), 7u);
  EXPECT_EQ(p.stats.count(ImportStat::kEventMissingField), 1);
  EXPECT_EQ(p.stats.problems(), 1);
  EXPECT_EQ(p.stats.events, static_cast<std::int64_t>(p.gpu.size() + p.cpu.size()));
  EXPECT_TRUE(std::is_sorted(p.gpu.begin(), p.gpu.end(),
                             [](const GpuActivity& a, const GpuActivity& b) { return a.start < b.start; }));
  auto version = std::find_if(p.metadata.begin(), p.metadata.end(),
                              [](const auto& kv) { return kv.first == "nsys_EXPORT_PRODUCT_VERSION"; });
  ASSERT_NE(version, p.metadata.end());
  EXPECT_EQ(version->second, "2025.3.1.90");
}

TEST(NsysImporter, StepsComeFromNvtxRangesAndTheCastIsFound) {
  std::vector<Profile> profiles = load_profiles({test::nsys_fixture("nsys_decode_small.sql")});
  AnalyzeReport report = analyze_profiles(profiles, {});
  ASSERT_EQ(report.ranks.size(), 1u);
  const RankAnalysis& r = report.ranks[0];
  EXPECT_EQ(r.steps.source, "annotation");
  EXPECT_EQ(r.steps.steps.size(), 6u);
  EXPECT_EQ(r.device, "NVIDIA H200");
  // Per step: 40 + 90 + 25 us of kernels, 1.2 us memset, 3 us copy.
  EXPECT_NEAR(r.steps.gpu_median_ms, 0.1592, 1e-6);
  ASSERT_FALSE(r.kernels.empty());
  EXPECT_NE(r.kernels[0].name.find("direct_copy_kernel_cuda"), std::string::npos);
}

TEST(NsysImporter, WithoutNvtxStepsComeFromTheRepeatingKernels) {
  std::vector<Profile> profiles =
      load_profiles({test::nsys_fixture("nsys_decode_small.sql", "DROP TABLE NVTX_EVENTS;")});
  AnalyzeReport report = analyze_profiles(profiles, {});
  EXPECT_EQ(report.ranks[0].steps.source, "periodicity");
  EXPECT_EQ(report.ranks[0].steps.period_kernels, 3);
}

TEST(NsysImporter, ProcessesAndGpusBecomeRanks) {
  std::string path = test::nsys_fixture("nsys_tp2_processes.sql");
  std::vector<Profile> ranks = load_trace_file(path);
  ASSERT_EQ(ranks.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const Profile& p = ranks[static_cast<std::size_t>(i)];
    EXPECT_EQ(p.rank, i);
    EXPECT_EQ(p.world_size, 2);
    EXPECT_EQ(p.file, path + " (process " + std::to_string(5001 + i) + ", GPU 0)");
    ASSERT_EQ(p.devices.size(), 1u);
    // Each process saw its own GPU as CUDA device 0.
    EXPECT_EQ(p.devices[0].name, i == 0 ? "NVIDIA H200" : "NVIDIA H100 80GB HBM3");
    // Correlation ids repeat across the processes: each rank holds its own launches only.
    for (const auto& r : p.cpu) EXPECT_EQ(r.pid, 5001 + i);
    EXPECT_EQ(names_of(p, CpuRangeKind::kAnnotation), std::vector<std::string>(3, "execute_model"));
    EXPECT_EQ(count_kind(p, GpuActivityKind::kKernel), i == 0 ? 12 : 9);
  }
  EXPECT_THROW(load_profile(path), InputError);
  AnalyzeReport report = analyze_profiles(load_profiles({path}), {});
  ASSERT_EQ(report.ranks.size(), 2u);
  EXPECT_EQ(report.ranks[0].steps.steps.size(), 3u);
  EXPECT_EQ(report.ranks[1].steps.steps.size(), 3u);
  EXPECT_EQ(report.ranks[1].steps.assigned_activities, 3 * 5);  // GEMM, attention, all-reduce, memset, copy
}

TEST(NsysImporter, AnOlderLayoutIsReadAndItsMissingColumnsCounted) {
  Profile p = load_profile(test::nsys_fixture("nsys_old_schema.sql"));
  EXPECT_EQ(p.stats.count(ImportStat::kColumnMissing), 5);
  EXPECT_EQ(p.stats.get(ImportStat::kColumnMissing).example, "CUPTI_ACTIVITY_KIND_KERNEL.globalPid");
  EXPECT_EQ(p.stats.problems(), 0);                         // column_missing is info: --strict accepts an older export
  EXPECT_EQ(p.gpu.front().memcpy_kind, MemcpyKind::kDtoD);  // copyKind 8, CUPTI's value
  EXPECT_EQ(p.name_of(p.gpu.front().name), "Memcpy DtoD");
  EXPECT_EQ(p.name_of(p.gpu[1].name),
            "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_"
            "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas");
  ASSERT_EQ(p.devices.size(), 1u);
  EXPECT_EQ(p.devices[0].name, "NVIDIA A100-SXM4-80GB");  // TARGET_INFO_GPU.id taken as the CUDA id
  std::vector<Profile> one;
  one.push_back(std::move(p));
  AnalyzeReport report = analyze_profiles(one, {});
  EXPECT_EQ(report.ranks[0].steps.steps.size(), 3u);
  EXPECT_EQ(report.ranks[0].steps.marker, "step[");
}

TEST(NsysImporter, BadValuesAreSkippedAndCounted) {
  std::string path =
      test::nsys_fixture("nsys_decode_small.sql",
                         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' WHERE rowid = 1;"
                         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 9999, shortName = 9998 "
                         "WHERE rowid = 2;"
                         "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET copyKind = 77 WHERE rowid = 1;"
                         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 5 WHERE rowid = 3;"
                         "UPDATE StringIds SET value = CAST(X'66FF6F' AS TEXT) WHERE value = 'sampler';");
  Profile p = load_profile(path);
  EXPECT_EQ(count_kind(p, GpuActivityKind::kKernel), 16);
  EXPECT_EQ(p.stats.count(ImportStat::kWrongValueType), 1);
  EXPECT_EQ(p.stats.get(ImportStat::kWrongValueType).example, "CUPTI_ACTIVITY_KIND_KERNEL.start = 'soon'");
  EXPECT_EQ(p.stats.count(ImportStat::kUnknownNameId), 2);
  EXPECT_EQ(p.stats.count(ImportStat::kEventMissingField), 2);  // the nameless kernel, the unclosed range
  EXPECT_EQ(p.stats.count(ImportStat::kValueOutOfRange), 1);
  EXPECT_EQ(p.stats.get(ImportStat::kValueOutOfRange).example, "CUPTI_ACTIVITY_KIND_MEMCPY.copyKind = 77");
  EXPECT_EQ(p.name_of(p.gpu.front().name), "Memcpy unknown");
  EXPECT_EQ(p.stats.count(ImportStat::kReversedInterval), 1);
  EXPECT_EQ(p.stats.count(ImportStat::kInvalidUtf8), 1);
  std::vector<std::string> nvtx = names_of(p, CpuRangeKind::kAnnotation);
  EXPECT_EQ(std::count(nvtx.begin(), nvtx.end(), "f\xEF\xBF\xBDo"), 1);
}

TEST(NsysImporter, StructureIsStrict) {
  auto error_after = [](const std::string& sql) {
    return load_error(test::nsys_fixture("nsys_decode_small.sql", sql));
  };
  EXPECT_NE(error_after("ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO k;"
                        "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT * FROM k;")
                .find(": not a readable Nsight Systems export ('CUPTI_ACTIVITY_KIND_KERNEL' is a view, not a table)"),
            std::string::npos);
  EXPECT_NE(error_after("ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME DROP COLUMN nameId;")
                .find("not a readable Nsight Systems export (no column CUPTI_ACTIVITY_KIND_RUNTIME.nameId)"),
            std::string::npos);
  EXPECT_NE(error_after("DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY;"
                        "DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET;")
                .find("the Nsight Systems export holds no CUDA kernels, memcpys or memsets (was it recorded with "
                      "--trace=cuda?)"),
            std::string::npos);
  std::string other = test::temp_dir() + "/other.sqlite";
  { SqliteDb(other, SqliteDb::Mode::kCreate).exec("CREATE TABLE t(x); INSERT INTO t VALUES (1);"); }
  EXPECT_EQ(load_error(other), other +
                                   ": an SQLite database, but neither a cuprobe run file (no 'metadata' table) nor an "
                                   "Nsight Systems export (no 'StringIds' table)");
}

// The two processes' all-reduces end together: a rank last at them by a tie or at warm-up costs no step anything and
// is named no straggler (text, JSON), where it once was "straggler: rank 0 ... costs every rank 0.0 us per step".
TEST(NsysImporter, RanksThatCostNothingAreNoStraggler) {
  std::string path = test::nsys_fixture("nsys_tp2_processes.sql");
  auto j = test::run_cuprobe({"analyze", "--json", path});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  auto cross = nlohmann::json::parse(j.out)["cross_rank"];
  ASSERT_TRUE(cross.is_object());
  EXPECT_TRUE(cross["straggler"].is_null()) << cross["straggler"];
  auto text = test::run_cuprobe({"analyze", path});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("straggler: none"), std::string::npos) << text.out;
}

TEST(NsysImporter, CliAnalyzesAnExportWithOneLineErrors) {
  auto r = test::run_cuprobe({"analyze", "--json", test::nsys_fixture("nsys_tp2_processes.sql")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"rank\": 1"), std::string::npos);
  std::string broken = test::nsys_fixture("nsys_decode_small.sql", "DROP TABLE StringIds; CREATE TABLE x(y);");
  r = test::run_cuprobe({"analyze", broken});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
}  // namespace cuprobe
