// Outputs that are not regular files (issue 39 item 1): `-o -`, /dev/stdout and
// a private FIFO are streamed into, never renamed over, by every verb that
// writes files; the FIFO is still a FIFO afterwards.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "support/run_cuprobe.h"

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

}  // namespace
}  // namespace cuprobe::test
