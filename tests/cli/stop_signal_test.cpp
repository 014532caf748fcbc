// Issue 39 item 4: SIGTERM stops every verb promptly, in each state where it
// waits: analyze and report blocked opening or reading a FIFO, wait between
// probes, bench waiting for the server or for its next arrival, bench blocked
// writing to a FIFO nobody opens or a pipe nobody reads, sample without a
// duration. Each is a real cuprobe process; each ends within seconds with one
// clear line, the outputs it had written intact and no temporary file left.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include "import/temp_dir.h"
#include "store/sqlite_db.h"
#include "support/background_process.h"
#include "support/fake_gpu_env.h"
#include "support/run_cuprobe.h"
#include "support/scripted_server.h"
#include "support/stream_server.h"
#include "support/test_paths.h"

namespace cuprobe::test {
namespace {

namespace fs = std::filesystem;
constexpr int kTerminated = 128 + SIGTERM;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Waits up to 10 s for `ready` (checked every 20 ms); false when it never held.
bool wait_for(const std::function<bool()>& ready) {
  for (int i = 0; i < 500; ++i) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return ready();
}

// SIGTERM after `settle`; the exit code (-1: still running 5 s later).
int terminate_after(BackgroundProcess& p, std::chrono::milliseconds settle = std::chrono::milliseconds(400)) {
  std::this_thread::sleep_for(settle);
  EXPECT_TRUE(p.running()) << "ended before the signal: " << p.err();
  return p.stop(SIGTERM, 5000);
}

// The names in `dir`, to see that no NAME.XXXXXX.partial was left.
std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// analyze opens a FIFO without waiting for a writer (none: an empty file); one that never writes blocks the read.
TEST(StopSignal, AnalyzeBlockedReadingAFifo) {
  TempDir dir;
  std::string fifo = dir.path() + "/trace.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  int writer = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(writer, 0);
  BackgroundProcess analyze(CUPROBE_BINARY, {"analyze", fifo}, dir.path() + "/analyze");
  EXPECT_EQ(terminate_after(analyze), kTerminated) << analyze.err();
  ::close(writer);
  EXPECT_EQ(analyze.err(), "cuprobe analyze: stopped by SIGTERM\n");
}

TEST(StopSignal, ReportBlockedReadingAFifoLeavesNoFile) {
  TempDir dir;
  std::string fifo = dir.path() + "/trace.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  int writer = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);  // a writer that never writes: reads block
  ASSERT_GE(writer, 0);
  ASSERT_EQ(::write(writer, "{\"traceEvents\": [", 17), 17);
  BackgroundProcess report(CUPROBE_BINARY, {"report", fifo, "-o", dir.path() + "/r.html"}, dir.path() + "/report");
  EXPECT_EQ(terminate_after(report), kTerminated) << report.err();
  ::close(writer);
  EXPECT_EQ(report.err(), "cuprobe report: stopped by SIGTERM\n");
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"report.err", "report.out", "trace.json"}));
}

TEST(StopSignal, WaitBetweenProbes) {
  ScriptedServer s([](const ScriptedRequest&) { return http_response(503, "loading", "text/plain"); });
  TempDir dir;
  BackgroundProcess wait(CUPROBE_BINARY, {"wait", s.url(), "--timeout", "10m", "--interval", "200ms"},
                         dir.path() + "/wait");
  EXPECT_EQ(terminate_after(wait, std::chrono::milliseconds(700)), kTerminated) << wait.err();
  EXPECT_TRUE(contains(wait.err(), "cuprobe wait: stopped by SIGTERM\n")) << wait.err();
}

TEST(StopSignal, BenchWaitingForTheServer) {
  ScriptedServer s([](const ScriptedRequest&) { return http_response(503, "loading", "text/plain"); });
  TempDir dir;
  BackgroundProcess bench(CUPROBE_BINARY,
                          {"bench", s.url(), "-n", "2", "-q", "--save-requests", dir.path() + "/r.jsonl"},
                          dir.path() + "/bench");
  EXPECT_EQ(terminate_after(bench, std::chrono::milliseconds(700)), kTerminated) << bench.err();
  EXPECT_EQ(bench.err(), "cuprobe bench: stopped by SIGTERM\n");
  EXPECT_FALSE(fs::exists(dir.path() + "/r.jsonl"));
}

// Open loop, constant arrivals 2 s apart (the first at 2 s, after bench's probe of the fields the
// server takes): SIGTERM while bench waits for the second's time. What finished is reported.
TEST(StopSignal, BenchWaitingForTheNextArrivalReportsWhatFinished) {
  StreamServer server(stream_timing(1000, 500));
  TempDir dir;
  BackgroundProcess bench(CUPROBE_BINARY,
                          {"bench", server.url(), "--rate", "0.5", "--arrival", "constant", "-n", "2", "--output-len",
                           "2", "--json", "-q", "--save-requests", dir.path() + "/r.jsonl"},
                          dir.path() + "/bench");
  ASSERT_TRUE(wait_for([&] { return server.served().size() >= 2; })) << bench.err();
  EXPECT_EQ(terminate_after(bench, std::chrono::milliseconds(200)), 1) << bench.err();
  nlohmann::json j = nlohmann::json::parse(slurp(dir.path() + "/bench.out"), nullptr, false);
  ASSERT_TRUE(j.is_object()) << slurp(dir.path() + "/bench.out");
  EXPECT_EQ(j["complete"], false) << j.dump();
  EXPECT_EQ(j["run"]["interrupted"], true) << j.dump();
  EXPECT_EQ(j["requests"]["completed"], 1) << j.dump();
  std::string lines = slurp(dir.path() + "/r.jsonl");
  int ok = 0;
  for (std::size_t at = 0, end; (end = lines.find('\n', at)) != std::string::npos; at = end + 1) {
    nlohmann::json rec = nlohmann::json::parse(lines.substr(at, end - at), nullptr, false);
    ASSERT_TRUE(rec.is_object()) << lines;
    ok += rec.value("ok", false) ? 1 : 0;
  }
  EXPECT_EQ(ok, 1) << lines;
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"bench.err", "bench.out", "r.jsonl"}));
}

// The run is done and printed; --save-requests names a FIFO nobody opens: bench waits in open().
TEST(StopSignal, BenchWritingToAFifoNobodyReads) {
  StreamServer server(stream_timing(1000, 500));
  TempDir dir;
  std::string fifo = dir.path() + "/requests.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  BackgroundProcess bench(
      CUPROBE_BINARY, {"bench", server.url(), "-n", "2", "--output-len", "2", "--json", "-q", "--save-requests", fifo},
      dir.path() + "/bench");
  ASSERT_TRUE(wait_for([&] { return !slurp(dir.path() + "/bench.out").empty(); })) << bench.err();
  EXPECT_EQ(terminate_after(bench), 1) << bench.err();
  EXPECT_EQ(bench.err(), "cuprobe bench: stopped by SIGTERM while writing " + fifo + ": it was not written whole\n");
  nlohmann::json j = nlohmann::json::parse(slurp(dir.path() + "/bench.out"), nullptr, false);
  EXPECT_EQ(j["requests"]["completed"], 2) << slurp(dir.path() + "/bench.out");
}

// The reader opened the FIFO but never reads: bench's write blocks once the pipe is full.
TEST(StopSignal, BenchWritingToAPipeNobodyReads) {
  StreamServer server(stream_timing(500, 200));
  TempDir dir;
  std::string fifo = dir.path() + "/requests.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(reader, 0);
  ASSERT_GT(::fcntl(reader, F_SETPIPE_SZ, 4096), 0);  // one page: a few request lines fill it
  BackgroundProcess bench(
      CUPROBE_BINARY,
      {"bench", server.url(), "-c", "4", "-n", "40", "--output-len", "2", "--json", "-q", "--save-requests", fifo},
      dir.path() + "/bench");
  ASSERT_TRUE(wait_for([&] { return !slurp(dir.path() + "/bench.out").empty(); })) << bench.err();
  EXPECT_EQ(terminate_after(bench), 1) << bench.err();
  ::close(reader);
  EXPECT_EQ(bench.err(), "cuprobe bench: stopped by SIGTERM while writing " + fifo + ": it was not written whole\n");
}

// sample documents SIGTERM as a normal end: exit 0, the file renamed into place, no .partial.
TEST(StopSignal, SampleWithoutADurationEndsCleanly) {
  TempDir dir;
  BackgroundProcess sample(CUPROBE_BINARY, {"sample", "-q", "-o", dir.path() + "/s.csv"}, dir.path() + "/sample",
                           fake_gpu_env());
  EXPECT_EQ(terminate_after(sample, std::chrono::milliseconds(800)), 0) << sample.err();
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"s.csv", "sample.err", "sample.out"}));
  EXPECT_TRUE(contains(slurp(dir.path() + "/s.csv"), "tensor_active_pct")) << slurp(dir.path() + "/s.csv");
}

// exporter ends with exit 0 at SIGTERM once serving (exporter_test); before, blocked opening its
// counters file (-f, a FIFO nobody writes), the default stop ends it.
TEST(StopSignal, ExporterBlockedOpeningItsCountersFile) {
  TempDir dir;
  std::string fifo = dir.path() + "/counters.csv";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  BackgroundProcess exporter(CUPROBE_BINARY, {"exporter", "-f", fifo, "--listen", "127.0.0.1:0"},
                             dir.path() + "/exporter", fake_gpu_env());
  EXPECT_EQ(terminate_after(exporter), kTerminated) << exporter.err();
  EXPECT_EQ(exporter.err(), "cuprobe exporter: stopped by SIGTERM\n");
}

// record forwards SIGTERM to its command and waits for it (docs/record.md): the command's own end
// (128+15) is passed through and the run file says the recording was interrupted.
TEST(StopSignal, RecordForwardsItAndMarksTheRunInterrupted) {
  TempDir dir;
  std::string out = dir.path() + "/run.cuprobe";
  std::string self = fs::read_symlink("/proc/self/exe").string();  // an ELF file the command never loads
  BackgroundProcess record(CUPROBE_BINARY,
                           {"record", "--no-counters", "--inject-library", self, "-o", out, "--", "sleep", "60"},
                           dir.path() + "/record");
  EXPECT_EQ(terminate_after(record, std::chrono::milliseconds(800)), kTerminated) << record.err();
  EXPECT_TRUE(contains(record.err(), "stopping")) << record.err();
  SqliteDb db(out, SqliteDb::Mode::kReadOnly);
  auto status = db.prepare("SELECT value FROM metadata WHERE key = 'status'");
  ASSERT_TRUE(status.step());
  EXPECT_EQ(status.text(0), "interrupted");
}

}  // namespace
}  // namespace cuprobe::test
