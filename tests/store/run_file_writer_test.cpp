#include "store/run_file_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "import/run_file/run_file_importer.h"
#include "store/run_file_schema.h"
#include "store/sqlite_db.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

void write_small_run(RunFileWriter& w) {
  RunKernelRow k;
  k.pid = 10;
  k.device = 0;
  k.start_ns = 100;
  k.end_ns = 250;
  k.name_id = w.name_id("gemm", "_Z4gemmv");
  w.add_kernel(k);
  RunCopyRow m;
  m.pid = 10;
  m.start_ns = 300;
  m.end_ns = 310;
  m.bytes = 64;
  w.add_memset(m);
  w.add_sample(0, 90, 200, "tensor_active_pct", 93.0);
  w.add_sample(0, 200, 300, "tensor_active_pct", std::nan(""));  // not read: left out
  w.process_started(10, 1, "a.out", 50, 130001);
  w.process_ended(10, 400, "exited", 0);
}

TEST(RunFileWriter, RoundTripsThroughTheImporter) {
  std::string path = test::temp_dir() + "/r.cuprobe";
  {
    RunFileWriter w(path, false);
    write_small_run(w);
    EXPECT_EQ(w.name_id("gemm", "_Z4gemmv"), w.name_id("gemm", "_Z4gemmv"));
    w.finish(kRunStatusComplete);
    EXPECT_EQ(w.counts().kernels, 1);
  }
  EXPECT_TRUE(looks_like_run_file(path));
  Profile p = import_run_file(path);
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(p.source, "cuprobe-run");
  ASSERT_EQ(p.gpu.size(), 2u);
  EXPECT_EQ(p.name_of(p.gpu[0].name), "gemm");
  EXPECT_EQ(p.gpu[1].kind, GpuActivityKind::kMemset);
  ASSERT_EQ(p.counters.size(), 1u);
  EXPECT_EQ(p.name_of(p.counters[0].metric), "tensor_active_pct");
  EXPECT_DOUBLE_EQ(p.counters[0].value, 93.0);
  EXPECT_EQ(p.stats.problems(), 0);
}

// The recorder registers the command it started and the injected library in that
// same process says hello: one row in the processes table, so one process counted.
TEST(RunFileWriter, CountsAProcessRegisteredTwiceOnce) {
  std::string path = test::temp_dir() + "/twice.cuprobe";
  RunFileWriter w(path, false);
  w.process_started(10, 1, "python x.py", 50, 0);
  w.process_started(10, 1, "python x.py", 60, 130001);
  w.process_started(11, 10, "python worker", 70, 130001);
  w.finish(kRunStatusComplete);
  EXPECT_EQ(w.counts().processes, 2);
  SqliteDb db(path, SqliteDb::Mode::kReadOnly);
  auto s = db.prepare("SELECT count(*) FROM processes");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.int64(0), 2);
}

TEST(RunFileWriter, WholeGraphLaunchesComeBackAsGraphActivities) {
  std::string path = test::temp_dir() + "/g.cuprobe";
  {
    RunFileWriter w(path, false);
    RunCopyRow g;
    g.pid = 10;
    g.start_ns = 1000;
    g.end_ns = 1900;
    g.graph_id = 7;
    w.add_graph_launch(g);
    w.finish(kRunStatusComplete);
  }
  Profile p = import_run_file(path);
  ASSERT_EQ(p.gpu.size(), 1u);
  EXPECT_EQ(p.gpu[0].kind, GpuActivityKind::kGraph);
  EXPECT_EQ(p.gpu[0].graph_id, 7);
  EXPECT_EQ(p.name_of(p.gpu[0].name), "CUDA graph 7 (whole launch)");
}

TEST(RunFileWriter, TablesAreQueryableWithPlainSql) {
  std::string path = test::temp_dir() + "/r.cuprobe";
  {
    RunFileWriter w(path, false);
    write_small_run(w);
    w.finish(kRunStatusComplete);
  }
  SqliteDb db(path, SqliteDb::Mode::kReadOnly);
  auto s = db.prepare("SELECT name, calls, total_ns FROM kernel_summary");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.text(0), "gemm");
  EXPECT_EQ(s.int64(1), 1);
  EXPECT_EQ(s.int64(2), 150);
}

TEST(RunFileWriter, UnfinishedRunIsReadableAndMarkedIncomplete) {
  std::string path = test::temp_dir() + "/r.cuprobe";
  {
    RunFileWriter w(path, false);
    write_small_run(w);
    w.commit();
    // destroyed without finish(): as if cuprobe died after the last commit
  }
  Profile p = import_run_file(path);
  EXPECT_FALSE(p.complete);
  EXPECT_EQ(p.gpu.size(), 2u);
  EXPECT_EQ(p.stats.count(ImportStat::kRecordingUnfinished), 1);
}

TEST(RunFileWriter, RefusesToReplaceUnlessAsked) {
  std::string path = test::temp_dir() + "/r.cuprobe";
  { RunFileWriter w(path, false); }
  EXPECT_THROW(RunFileWriter(path, false), Error);
  EXPECT_NO_THROW(RunFileWriter(path, true));
}

TEST(RunFileImporter, RejectsFilesThatAreNotRunFiles) {
  std::string dir = test::temp_dir();
  { std::ofstream(dir + "/text.cuprobe") << "{\"traceEvents\": []}"; }
  EXPECT_FALSE(looks_like_run_file(dir + "/text.cuprobe"));
  EXPECT_THROW(import_run_file(dir + "/text.cuprobe"), InputError);
  EXPECT_THROW(import_run_file(dir + "/missing.cuprobe"), InputError);
  {
    SqliteDb db(dir + "/other.db", SqliteDb::Mode::kCreate);
    db.exec("CREATE TABLE t(x)");
  }
  EXPECT_TRUE(looks_like_run_file(dir + "/other.db"));
  try {
    import_run_file(dir + "/other.db");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a cuprobe run file"), std::string::npos);
  }
}

TEST(RunFileImporter, TruncatedFileIsAnInputErrorNotACrash) {
  std::string dir = test::temp_dir();
  std::string path = dir + "/r.cuprobe";
  {
    RunFileWriter w(path, false);
    for (int i = 0; i < 2000; ++i) {
      RunKernelRow k;
      k.start_ns = i * 10;
      k.end_ns = i * 10 + 5;
      k.name_id = w.name_id("kernel_" + std::to_string(i % 50));
      w.add_kernel(k);
    }
    w.finish(kRunStatusComplete);
  }
  auto size = std::filesystem::file_size(path);
  for (auto keep : {size / 2, size / 4, std::uintmax_t{100}}) {
    std::string cut = dir + "/cut" + std::to_string(keep) + ".cuprobe";
    std::filesystem::copy_file(path, cut);
    std::filesystem::resize_file(cut, keep);
    EXPECT_THROW(import_run_file(cut), InputError) << keep;
  }
}

TEST(RunFileImporter, FutureFormatVersionIsRefused) {
  std::string path = test::temp_dir() + "/r.cuprobe";
  {
    RunFileWriter w(path, false);
    w.set_metadata("format_version", "99");
    w.finish(kRunStatusComplete);
  }
  EXPECT_THROW(import_run_file(path), InputError);
}

}  // namespace
}  // namespace cuprobe
