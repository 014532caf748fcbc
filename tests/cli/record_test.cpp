// cuprobe record end to end without a GPU: the command is this test binary
// itself, acting as an injected library (it speaks the wire format over
// CUPROBE_RECORD_SOCKET), so the parent's whole path is exercised.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "collect/build_info.h"
#include "import/run_file/run_file_importer.h"
#include "store/sqlite_db.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"
#include "wire/record_wire.h"

namespace cuprobe::test {
namespace {

std::string self_exe() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

// `cuprobe record` checks only that the injection library exists before it hands
// the path to the command: this binary stands in for it, so these tests need no
// CUPTI build and run in an analysis-only build too.
std::vector<std::string> record_without_library(const std::string& out) {
  return {"record", "--no-counters", "--inject-library", self_exe(), "-o", out, "--"};
}

// Runs `cuprobe record` with this binary as the command, running one FakeLibrary test.
CommandResult record_fake(const std::string& out, const std::string& fake_test) {
  auto args = record_without_library(out);
  args.push_back(self_exe());
  args.push_back("--gtest_filter=FakeLibrary." + fake_test);
  return run_cuprobe(args);
}

int connect_parent() {
  const char* path = std::getenv(wire::kSocketEnv);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return -1;
  return fd;
}

void send_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    ssize_t n = write(fd, s.data() + done, s.size() - done);
    ASSERT_GT(n, 0);
    done += static_cast<std::size_t>(n);
  }
}

std::string frames_for_two_kernels() {
  std::string s;
  wire::append_frame(s, wire::Type::kHello,
                     wire::Hello{wire::kMagic, wire::kVersion, 0, 130001, 0, getpid(), getppid(), 5000, 1000}, "fake");
  wire::append_frame(s, wire::Type::kString, wire::String{1, 0}, "_Z11fake_kernelv");
  wire::Kernel k{};
  k.start = 2000;
  k.end = 3000;
  k.name_id = 1;
  wire::append_frame(s, wire::Type::kKernel, k);
  k.start = 4000;
  k.end = 4500;
  wire::append_frame(s, wire::Type::kKernel, k);
  return s;
}

// The "library" halves: skipped unless started by cuprobe record.
TEST(FakeLibrary, SendsTwoKernels) {
  if (!std::getenv(wire::kSocketEnv)) GTEST_SKIP() << "only runs under cuprobe record";
  int fd = connect_parent();
  ASSERT_GE(fd, 0);
  std::string s = frames_for_two_kernels();
  wire::append_frame(s, wire::Type::kGoodbye, wire::Goodbye{6000, 2});
  send_all(fd, s);
  close(fd);
}

TEST(FakeLibrary, DiesMidStream) {
  if (!std::getenv(wire::kSocketEnv)) GTEST_SKIP() << "only runs under cuprobe record";
  int fd = connect_parent();
  ASSERT_GE(fd, 0);
  std::string s = frames_for_two_kernels();
  send_all(fd, s.substr(0, s.size() - 10));
  std::raise(SIGKILL);
}

TEST(FakeLibrary, SendsGarbage) {
  if (!std::getenv(wire::kSocketEnv)) GTEST_SKIP() << "only runs under cuprobe record";
  int fd = connect_parent();
  ASSERT_GE(fd, 0);
  send_all(fd, std::string(100, '\x7f'));
  close(fd);
}

bool has_warning(const Profile& p, const std::string& text) {
  for (const auto& line : p.stats.counted()) {
    if (line.text().find(text) != std::string::npos) return true;
  }
  for (const auto& notice : p.notices) {
    if (notice.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(RecordCli, RecordsWhatTheLibrarySends) {
  std::string out = temp_dir() + "/run.cuprobe";
  auto r = record_fake(out, "SendsTwoKernels");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("2 kernels"), std::string::npos) << r.err;
  Profile p = import_run_file(out);
  EXPECT_TRUE(p.complete);
  ASSERT_EQ(p.gpu.size(), 2u);
  EXPECT_EQ(p.name_of(p.gpu[0].name), "fake_kernel()");
  EXPECT_EQ(p.gpu[0].start, 2000 + 4000);  // CUPTI clock + (realtime - cupti) from the hello
  SqliteDb db(out, SqliteDb::Mode::kReadOnly);
  auto s = db.prepare("SELECT end_reason, exit_code FROM processes WHERE end_reason IS NOT NULL");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.text(0), "exited");
}

TEST(RecordCli, KilledCommandPassesSignalThroughAndLeavesAValidFile) {
  std::string out = temp_dir() + "/run.cuprobe";
  auto r = record_fake(out, "DiesMidStream");
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.err;
  EXPECT_NE(r.err.find("killed by signal 9"), std::string::npos) << r.err;
  Profile p = import_run_file(out);
  EXPECT_EQ(p.gpu.size(), 1u);  // the second kernel frame was cut
  EXPECT_TRUE(has_warning(p, "cut mid-frame"));
  EXPECT_TRUE(has_warning(p, "killed by signal 9"));
}

TEST(RecordCli, GarbageFromTheLibraryIsReportedNotFatal) {
  std::string out = temp_dir() + "/run.cuprobe";
  auto r = record_fake(out, "SendsGarbage");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("bad record stream"), std::string::npos) << r.err;
  Profile p = import_run_file(out);
  EXPECT_TRUE(has_warning(p, "bad record stream"));
}

TEST(RecordCli, ExitCodeOfTheCommandIsPassedThrough) {
  std::string out = temp_dir() + "/run.cuprobe";
  auto args = record_without_library(out);
  args.insert(args.end(), {"sh", "-c", "exit 7"});
  auto r = run_cuprobe(args);
  EXPECT_EQ(r.exit_code, 7);
  Profile p = import_run_file(out);
  EXPECT_TRUE(has_warning(p, "no process of the command initialized CUDA"));
}

TEST(RecordCli, MissingLibraryRecordsCountersOnly) {
  std::string out = temp_dir() + "/run.cuprobe";
  auto r = run_cuprobe(
      {"record", "--no-counters", "--inject-library", "/nonexistent/libx.so", "-o", out, "--", "sh", "-c", "exit 3"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("injection library /nonexistent/libx.so not found"), std::string::npos) << r.err;
  Profile p = import_run_file(out);
  EXPECT_TRUE(p.gpu.empty());
}

TEST(RecordCli, AFileThatIsNoLibraryIsRefusedBeforeTheCommandRuns) {
  std::string out = temp_dir() + "/run.cuprobe";
  std::string marker = temp_dir() + "/ran";
  auto r =
      run_cuprobe({"record", "--no-counters", "--inject-library", "/etc/passwd", "-o", out, "--", "touch", marker});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--inject-library /etc/passwd: not an ELF shared library"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(marker));
}

TEST(RecordCli, AnOutputInAMissingDirectoryIsNamed) {
  auto r = run_cuprobe({"record", "--no-counters", "-o", "/nonexistent-dir/run.cuprobe", "--", "true"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("directory /nonexistent-dir does not exist"), std::string::npos) << r.err;
}

TEST(RecordCli, FindsTheLibraryBesideTheBinary) {
  if (!built_with_cupti()) GTEST_SKIP() << "analysis-only build: no injection library to find";
  std::string out = temp_dir() + "/run.cuprobe";
  auto r = run_cuprobe({"record", "--no-counters", "-o", out, "--", "true"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  SqliteDb db(out, SqliteDb::Mode::kReadOnly);
  auto s = db.prepare("SELECT value FROM metadata WHERE key = 'inject_library'");
  ASSERT_TRUE(s.step());
  std::string expected = std::filesystem::path(CUPROBE_BINARY).parent_path().string() + "/libcuprobe_inject.so";
  EXPECT_EQ(s.text(0), std::filesystem::weakly_canonical(expected).string());
}

TEST(RecordCli, UsageErrors) {
  std::string dir = temp_dir();
  EXPECT_EQ(run_cuprobe({"record", "-o", dir + "/a.cuprobe"}).exit_code, 2);
  EXPECT_EQ(run_cuprobe({"record", "--kinds", "kernel,bogus", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cuprobe({"record", "--capture", "sometimes", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cuprobe({"record", "--delay", "soon", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cuprobe({"record", "--preset", "bogus", "--", "true"}).exit_code, 2);
  auto gpus = run_cuprobe({"record", "--gpu", "0,x", "--", "true"});
  EXPECT_EQ(gpus.exit_code, 2);
  EXPECT_NE(gpus.err.find("invalid --gpu '0,x'"), std::string::npos) << gpus.err;
  EXPECT_EQ(run_cuprobe({"record", "--interval", "0s", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cuprobe({"record", "--help"}).exit_code, 0);
}

TEST(RecordCli, MissingCommandAndExistingOutput) {
  std::string out = temp_dir() + "/run.cuprobe";
  auto r = run_cuprobe({"record", "--no-counters", "-o", out, "--", "/nonexistent/cmd"});
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_NE(r.err.find("cannot run"), std::string::npos);
  auto again = run_cuprobe({"record", "--no-counters", "-o", out, "--", "true"});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.err.find("already exists"), std::string::npos);
  EXPECT_EQ(run_cuprobe({"record", "--no-counters", "-f", "-o", out, "--", "true"}).exit_code, 0);
}

}  // namespace
}  // namespace cuprobe::test
