#include "import/load_profiles.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>

#include "common/error.h"
#include "store/sqlite_db.h"
#include "support/nsys_fixture.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

// issue 11 B8: the sniff must not eat the first bytes of a pipe.
TEST(LoadProfiles, ReadsTracesFromAPipe) {
  for (const char* name : {"tp2_mlp_decode_rank0.json.gz", "mla_fp8pool_fullcast_small.json.gz"}) {
    std::string bytes = test::slurp(test::data_path(name));
    auto r = test::run_cuprobe({"analyze", "--json", "/dev/stdin"}, bytes);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_NE(r.out.find("cuprobe.analyze/1"), std::string::npos);
  }
}

TEST(LoadProfiles, ReadsATraceFromAFifoOnce) {
  std::string fifo = test::temp_dir() + "/t.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string bytes = test::slurp(test::data_path("tp2_mlp_decode_rank0.json.gz"));
  // The writer is there before the reader (O_RDWR opens without waiting for one).
  int fd = ::open(fifo.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  auto writer = std::async(std::launch::async, [&] {
    for (std::size_t done = 0; done < bytes.size();) {
      ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  Profile p = load_profile(fifo);
  writer.get();
  EXPECT_FALSE(p.gpu.empty());
  EXPECT_EQ(p.file, fifo);
}

TEST(LoadProfiles, AFifoNobodyWritesToIsAnErrorNotAHang) {
  std::string fifo = test::temp_dir() + "/idle.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto start = std::chrono::steady_clock::now();
  auto r = test::run_cuprobe({"analyze", fifo});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(fifo + ": byte 0: empty file"), std::string::npos) << r.err;
}

TEST(LoadProfiles, TwoFilesClaimingOneRankAreWarnedAboutByName) {
  std::string dir = test::temp_dir();
  std::string trace = R"J({"distributedInfo": {"rank": 1}, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 1, "args": {"correlation": 1}}]})J";
  std::ofstream(dir + "/a.json") << trace;
  std::ofstream(dir + "/b.json") << trace;
  std::vector<Profile> ps = load_profiles({dir + "/a.json", dir + "/b.json"});
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].stats.get(ImportStat::kDuplicateRank).example, "rank 1 is claimed by " + dir + "/b.json too");
  EXPECT_EQ(ps[1].stats.get(ImportStat::kDuplicateRank).example, "rank 1 is claimed by " + dir + "/a.json too");
  auto r = test::run_cuprobe({"analyze", dir + "/a.json", dir + "/b.json"});
  EXPECT_NE(r.out.find("rank 1 is claimed by " + dir + "/b.json too"), std::string::npos) << r.out;
}

// issue 12 item 8: a directory stands for the traces in it, one per rank.
TEST(LoadProfiles, ADirectoryIsEveryTraceInIt) {
  std::string dir = test::temp_dir();
  std::filesystem::copy_file(test::data_path("tp2_mlp_decode_rank0.json.gz"), dir + "/tp2_mlp_decode_rank0.json.gz");
  std::filesystem::copy_file(test::data_path("tp2_mlp_decode_rank1.json.gz"),
                             dir + "/worker1.pt.trace.json.gz");  // no rank in the name: distributedInfo has it
  std::ofstream(dir + "/README.txt") << "how these traces were made\n";
  std::ofstream(dir + "/bench.json") << R"({"schema": "cuprobe.bench/1", "results": []})";
  std::filesystem::create_directory(dir + "/older");
  std::vector<Profile> ps = load_profiles({dir});
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].rank, 0);
  EXPECT_EQ(ps[1].rank, 1);
  EXPECT_EQ(ps[1].file, dir + "/worker1.pt.trace.json.gz");
  const ImportStatCount& skipped = ps[0].stats.get(ImportStat::kNotATraceFile);
  EXPECT_EQ(skipped.count, 3);
  EXPECT_EQ(skipped.example, "README.txt (neither JSON nor SQLite)");
  EXPECT_EQ(ps[1].stats.count(ImportStat::kNotATraceFile), 0);

  auto r = test::run_cuprobe({"analyze", "--strict", dir});  // file_not_a_trace is info: --strict accepts it
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(
      r.out.find("3 files in a directory given that are not traces (skipped) [file_not_a_trace] (first: README.txt"),
      std::string::npos)
      << r.out;
  r = test::run_cuprobe({"diff", dir, dir + "/tp2_mlp_decode_rank0.json.gz," + dir + "/worker1.pt.trace.json.gz"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(LoadProfiles, ADirectoryMixesFormatsAndSkipsAReportWhoseExportIsBeside) {
  std::string dir = test::temp_dir();
  std::filesystem::copy_file(test::nsys_fixture("nsys_decode_small.sql"), dir + "/rank0.sqlite");
  std::ofstream(dir + "/rank0.nsys-rep") << "not read";
  std::filesystem::copy_file(test::data_path("tp2_mlp_decode_rank1.json.gz"), dir + "/rank1.json.gz");
  { SqliteDb(dir + "/notes.db", SqliteDb::Mode::kCreate).exec("CREATE TABLE t(x)"); }
  std::vector<Profile> ps = load_profiles({dir});
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].source, "nsys");
  EXPECT_EQ(ps[0].rank, 0);
  EXPECT_EQ(ps[1].source, "kineto");
  EXPECT_EQ(ps[0].stats.count(ImportStat::kNotATraceFile), 2);
  EXPECT_EQ(ps[0].stats.get(ImportStat::kNotATraceFile).example,
            "notes.db (an SQLite database, neither a cuprobe run file nor an Nsight Systems export)");
}

TEST(LoadProfiles, ADirectoryWithoutTracesIsAnError) {
  std::string dir = test::temp_dir();
  try {
    load_profiles({dir});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), dir + ": no trace files in the directory (it is empty)");
  }
  std::ofstream(dir + "/notes.md") << "# notes\n";
  std::ofstream(dir + "/empty.json");
  auto r = test::run_cuprobe({"analyze", dir});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(dir + ": no trace files in the directory (2 other files, first: empty.json (empty))\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // A corrupt file with a trace's name is not skipped: its error is the answer.
  std::ofstream(dir + "/rank0.json.gz") << "not gzip at all";
  r = test::run_cuprobe({"analyze", dir});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(dir + "/rank0.json.gz"), std::string::npos) << r.err;
}

// issue 12 item 6: a Kineto file of several processes (traces merged into one) is one rank per process, as a
// run file of torchrun is; each rank keeps its own GPU, annotations and launches.
TEST(LoadProfiles, AKinetoFileOfSeveralProcessesIsOneRankPerProcess) {
  std::vector<Profile> ps = load_profiles({test::data_path("format_processes_per_gpu.json")});
  ASSERT_EQ(ps.size(), 2u);
  const std::int64_t pids[] = {4100, 4200};
  for (int r = 0; r < 2; ++r) {
    const Profile& p = ps[static_cast<std::size_t>(r)];
    EXPECT_EQ(p.rank, r);
    EXPECT_EQ(p.world_size, 2);
    EXPECT_EQ(p.file, test::data_path("format_processes_per_gpu.json") + " (pid " + std::to_string(pids[r]) + ")");
    ASSERT_EQ(p.gpu.size(), 24u);
    ASSERT_EQ(p.devices.size(), 1u);
    EXPECT_EQ(p.devices[0].id, r);
    for (const auto& a : p.gpu) {
      EXPECT_EQ(a.device, r);
      // Both processes numbered their launches from 1: each kernel finds its launch in its own rank, once.
      EXPECT_EQ(std::count_if(p.cpu.begin(), p.cpu.end(),
                              [&](const CpuRange& c) {
                                return c.kind == CpuRangeKind::kRuntime && c.correlation == a.correlation;
                              }),
                1);
    }
    for (const auto& c : p.cpu) EXPECT_EQ(c.pid, pids[r]);
  }
  EXPECT_EQ(ps[0].stats.count(ImportStat::kCorrelationPerProcess), 24);  // the file's counts: with the first rank
  EXPECT_EQ(ps[1].stats.count(ImportStat::kCorrelationPerProcess), 0);
}

// `export` converts a file whole: its processes stay together.
TEST(LoadProfiles, OneFileWholeKeepsItsProcessesTogether) {
  Profile p = load_profile(test::data_path("format_processes_per_gpu.json"));
  EXPECT_EQ(p.gpu.size(), 48u);
  EXPECT_EQ(p.devices.size(), 2u);
  auto r = test::run_cuprobe(
      {"export", "--chrome", test::data_path("format_processes_per_gpu.json"), "-o", test::temp_dir() + "/t.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(LoadProfiles, AKinetoFileOfOneProcessOnTwoGpusIsOneRank) {
  std::vector<Profile> ps = load_profiles({test::data_path("format_pipeline_two_gpus.json")});
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_FALSE(ps[0].rank);
  EXPECT_EQ(ps[0].devices.size(), 2u);
  EXPECT_TRUE(std::all_of(ps[0].gpu.begin(), ps[0].gpu.end(), [](const GpuActivity& a) { return a.pid == 4300; }));
}

}  // namespace
}  // namespace cuprobe
