// Outputs that are not regular files (issue 39 item 1): `-o -`, /dev/stdout and
// a private FIFO are streamed into, never renamed over, by every verb that
// writes files; the FIFO is still a FIFO afterwards.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "support/run_cuprobe.h"
#include "support/stream_server.h"

namespace cuprobe::test {
namespace {

namespace fs = std::filesystem;

// Runs cuprobe with a reader on a FIFO made in a temp dir; returns what the reader got.
std::string through_fifo(std::vector<std::string> args, const std::string& fifo, CommandResult& r) {
  std::string got;
  std::thread reader([&] {
    int fd = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char buf[65536];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
  });
  r = run_cuprobe(args);
  if (r.exit_code != 0) {  // never opened for writing: let the reader go
    int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) ::close(fd);
  }
  reader.join();
  return got;
}

std::string make_fifo() {
  std::string path = temp_dir() + "/out.fifo";
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
  return path;
}

TEST(OutputInPlace, ReportStreamsToStdoutAndToAFifo) {
  std::string trace = data_path("format_begin_end.json");
  for (const char* target : {"-", "/dev/stdout"}) {
    auto r = run_cuprobe({"report", trace, "-o", target});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u) << target << ": " << r.out.substr(0, 80);
    EXPECT_NE(r.out.find("</html>"), std::string::npos) << target;
  }
  EXPECT_FALSE(fs::exists("-"));  // no file named "-" made here
  std::string fifo = make_fifo();
  CommandResult r;
  std::string page = through_fifo({"report", trace, "-o", fifo}, fifo, r);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u) << page.substr(0, 80);
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(std::distance(fs::directory_iterator(fs::path(fifo).parent_path()), fs::directory_iterator()), 1);
}

TEST(OutputInPlace, ExportStreamsToStdoutAndToAFifo) {
  std::string trace = data_path("format_begin_end.json");
  for (const char* target : {"-", "/dev/stdout"}) {
    auto r = run_cuprobe({"export", "--chrome", trace, "-o", target});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("traceEvents"), std::string::npos) << target;
  }
  std::string fifo = make_fifo();
  CommandResult r;
  std::string trace_json = through_fifo({"export", "--chrome", trace, "-o", fifo}, fifo, r);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(trace_json.find("traceEvents"), std::string::npos);
  EXPECT_TRUE(fs::is_fifo(fifo));
}

// bench's files to stdout: --output-file (SGLang's, appended) never reads its target, so
// /dev/stdout does not hang; --save-requests - and --result-file - go to stdout too.
TEST(OutputInPlace, BenchResultFilesGoToStdout) {
  StreamServer s(StreamServerOptions{});
  auto r = run_cuprobe({"bench", s.url(), "--model", "m", "-n", "2", "--output-file", "/dev/stdout"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"backend\""), std::string::npos) << r.out;
  r = run_cuprobe({"bench", s.url(), "--model", "m", "-n", "2", "--result-file", "-", "--save-requests", "-"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cuprobe.bench/1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"ttft"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists("-"));
}

// Issue 39 item 3: an output that cannot be written stops bench before its first request (it used to run,
// then print nothing and exit 1); a model id of 400 characters with CR/LF/ESC makes a safe default name.
TEST(OutputInPlace, BenchChecksItsFilesBeforeTheFirstRequest) {
  StreamServer s(StreamServerOptions{});
  auto r = run_cuprobe({"bench", s.url(), "--model", "m", "-n", "2", "--result-file", "/nonexistent-dir/r.json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot write /nonexistent-dir/r.json: No such file or directory (ENOENT)"), std::string::npos)
      << r.err;
  EXPECT_TRUE(s.served().empty());
  r = run_cuprobe({"bench", s.url(), "--model", "m", "-n", "2", "--save-requests", "/nonexistent-dir/q.jsonl"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(s.served().empty());
  EXPECT_EQ(run_cuprobe({"analyze", data_path("format_begin_end.json"), "--csv", "-"}).exit_code, 2);
}

TEST(OutputInPlace, AServersModelIdMakesASafeFileName) {
  StreamServerOptions o;
  o.model = "org/" + std::string(400, 'm') + "\r\n\x1b[2J";
  StreamServer s(o);
  std::string dir = temp_dir() + "/results";
  auto r = run_cuprobe({"bench", s.url(), "-n", "2", "--save-result", "--result-dir", dir});
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 4) << r.err;  // the test server may refuse such a model: 4
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  ASSERT_EQ(names.size(), 1u);
  EXPECT_LE(names[0].size(), 200u);
  EXPECT_TRUE(names[0].ends_with(".json")) << names[0];
  EXPECT_EQ(names[0].find_first_of("\r\n\x1b/"), std::string::npos) << names[0];
}

// --output-file appends to a file without reading it: the old text stays, the same inode.
TEST(OutputInPlace, BenchAppendsWithoutReplacing) {
  StreamServer s(StreamServerOptions{});
  std::string path = write_temp_file("sglang.jsonl", "{\"old\": 1}");
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  auto r = run_cuprobe({"bench", s.url(), "--model", "m", "-n", "2", "--output-file", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string text = slurp(path);
  EXPECT_EQ(text.rfind("{\"old\": 1}\n{", 0), 0u) << text.substr(0, 40);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
}

}  // namespace
}  // namespace cuprobe::test
