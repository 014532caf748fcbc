// Whole files read with a bound (issue 39): a device, a FIFO without end, a file over the limit: one line.
#include "common/bounded_read.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "support/error_text.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

TEST(BoundedRead, ReadsAFileWithinTheLimit) {
  std::string path = test::write_temp_file("ok.txt", "line\n");
  EXPECT_EQ(read_bounded_file(path, 5), "line\n");
  EXPECT_EQ(test::error_text([&] { read_bounded_file(path, 4); }), path + ": 5 bytes, over the limit of 4 bytes");
  EXPECT_EQ(test::error_text([&] { read_bounded_file(path + ".none", 4); }),
            path + ".none: cannot open: No such file or directory (ENOENT)");
  std::string dir = test::temp_dir();
  EXPECT_EQ(test::error_text([&] { read_bounded_file(dir, 4); }), dir + ": a directory, not a file");
}

// A FIFO whose writer never stops: read up to the bound, then one line (the writer gets EPIPE).
TEST(BoundedRead, AnEndlessFifoStopsAtTheLimit) {
  std::string fifo = test::temp_dir() + "/endless";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    sigset_t pipe_signal;  // this thread's write gets EPIPE when the reader stops (the signal stays blocked)
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    std::string chunk(65536, 'z');
    while (::write(fd, chunk.data(), chunk.size()) > 0) {
    }
    ::close(fd);
  });
  EXPECT_EQ(test::error_text([&] { read_bounded_file(fifo, 1 << 20); }), fifo + ": over the limit of 1048576 bytes");
  writer.join();
}

// A private zero device (never the system's /dev): refused before any byte is read.
TEST(BoundedRead, ADeviceIsRefused) {
  std::string node = test::temp_dir() + "/zero";
  if (::mknod(node.c_str(), S_IFCHR | 0600, ::makedev(1, 5)) != 0) GTEST_SKIP() << "mknod not permitted";
  int probe = ::open(node.c_str(), O_RDONLY | O_CLOEXEC);
  if (probe < 0) GTEST_SKIP() << "the temporary folder is mounted nodev";
  ::close(probe);
  EXPECT_EQ(test::error_text([&] { read_bounded_file(node, 1 << 20); }), node + ": a device, not a file: give a file");
}

}  // namespace
}  // namespace cuprobe
