// Outputs checked before any work, appends that never read (issue 39 items 3 and 4).
#include "common/output_target.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/error_text.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

TEST(OutputTarget, CheckingNamesTheTargetAndLeavesNothing) {
  std::string dir = test::temp_dir();
  check_writable(dir + "/new.json");
  EXPECT_TRUE(fs::is_empty(dir));  // the probe's temporary file is gone
  EXPECT_EQ(test::error_text([&] { check_writable(dir + "/missing/x.json"); }),
            "cannot write " + dir + "/missing/x.json: No such file or directory (ENOENT)");
  EXPECT_EQ(test::error_text([&] { check_writable(dir); }), "cannot write " + dir + ": Is a directory (EISDIR)");
  check_writable("-");
  std::string fifo = dir + "/f";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  check_writable(fifo);  // not opened: no reader needed, none would see an end
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  EXPECT_EQ(test::error_text([&] { check_writable("/dev/fd/" + std::to_string(fds[0])); }),
            "cannot write /dev/fd/" + std::to_string(fds[0]) + ": Bad file descriptor (EBADF)");
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(OutputTarget, AppendingNeverReadsAndKeepsTheFile) {
  std::string path = test::write_temp_file("lines.jsonl", "old");
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  EXPECT_EQ(last_byte_of(path), "d");
  append_to_file(path, "\nnew\n");
  EXPECT_EQ(test::slurp(path), "old\nnew\n");
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);  // appended to, not replaced
  EXPECT_EQ(last_byte_of(path + ".none"), "");
  append_to_file(path + ".none", "first\n");
  EXPECT_EQ(test::slurp(path + ".none"), "first\n");
  EXPECT_EQ(last_byte_of("/dev/stdout"), "");  // never read
  EXPECT_NE(test::error_text([&] { append_to_file(path, "x", {path}); }).find("this output is the input"),
            std::string::npos);
}

}  // namespace
}  // namespace cuprobe
