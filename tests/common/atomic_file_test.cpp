// Writers (issue 23 item 2): a new temporary file under a random name, never a
// planted link or file; synced and renamed; nothing left behind on failure;
// an output that is an input refused; several files replaced together.
#include "common/atomic_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "common/error.h"
#include "support/error_text.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) { return test::slurp(p.string()); }

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cuprobe_atomic_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(AtomicFileTest, ReplacesTheTargetAndLeavesNothingElse) {
  fs::path p = dir_ / "out.json";
  write_file_atomically(p.string(), "old");
  write_file_atomically(p.string(), std::string("new\0text", 8));
  EXPECT_EQ(read_all(p), std::string("new\0text", 8));
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"out.json"});
}

TEST_F(AtomicFileTest, UncommittedWriteLeavesTheOldFileAndNoTemporary) {
  fs::path p = dir_ / "out.txt";
  write_file_atomically(p.string(), "complete");
  {
    AtomicFile f(p.string());
    f.stream() << "half";
    EXPECT_EQ(names_in(dir_).size(), 2u);  // the temporary file, beside the target
  }
  EXPECT_EQ(read_all(p), "complete");
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"out.txt"});
}

// The old fixed name OUT.partial, planted as a link to a victim: neither followed nor renamed into place.
TEST_F(AtomicFileTest, APlantedSymlinkOrHardLinkIsNeverFollowed) {
  fs::path victim = dir_ / "victim";
  std::ofstream(victim) << "precious";
  fs::create_symlink(victim, dir_ / "out.html.partial");
  fs::create_hard_link(victim, dir_ / "out.csv.partial");
  write_file_atomically((dir_ / "out.html").string(), "page");
  write_file_atomically((dir_ / "out.csv").string(), "rows");
  EXPECT_EQ(read_all(victim), "precious");
  EXPECT_FALSE(fs::is_symlink(dir_ / "out.html"));
  EXPECT_EQ(read_all(dir_ / "out.html"), "page");
  EXPECT_EQ(read_all(dir_ / "out.csv"), "rows");
  EXPECT_EQ(fs::hard_link_count(victim), 2u);  // the planted link, not the output
}

// A target that is itself a link is replaced (the link), never written through.
TEST_F(AtomicFileTest, ATargetThatIsALinkIsReplacedNotWrittenThrough) {
  fs::path victim = dir_ / "victim";
  std::ofstream(victim) << "precious";
  fs::create_symlink(victim, dir_ / "out.json");
  write_file_atomically((dir_ / "out.json").string(), "new");
  EXPECT_EQ(read_all(victim), "precious");
  EXPECT_FALSE(fs::is_symlink(dir_ / "out.json"));
}

TEST_F(AtomicFileTest, AnOutputThatIsAnInputIsRefused) {
  fs::path input = dir_ / "run.cuprobe";
  std::ofstream(input) << "data";
  fs::create_symlink(input, dir_ / "link");
  fs::create_hard_link(input, dir_ / "hard");
  for (const fs::path& out : {input, dir_ / "link", dir_ / "hard", dir_ / "." / "run.cuprobe"}) {
    std::string e = test::error_text([&] { write_file_atomically(out.string(), "x", {"other", input.string()}); });
    EXPECT_NE(e.find(out.string() + ": this output is the input " + input.string()), std::string::npos) << e;
    try {
      AtomicFile f(out.string(), {input.string()});
    } catch (const Error& err) {
      EXPECT_EQ(err.exit_code(), kExitUsage);
    }
  }
  EXPECT_EQ(read_all(input), "data");
  write_file_atomically((dir_ / "fresh").string(), "x", {input.string(), (dir_ / "missing").string()});
}

TEST_F(AtomicFileTest, AnUnwritableDirectoryIsOneLineNamingTheTargetAndTheErrno) {
  std::string p = (dir_ / "no_such_dir" / "x").string();
  EXPECT_EQ(test::error_text([&] { write_file_atomically(p, "x"); }),
            "cannot write " + p + ": No such file or directory (ENOENT)");
}

// A full disk, injected: the file-size limit makes write(2) fail with EFBIG at 4 KiB.
TEST_F(AtomicFileTest, AFailedWriteNamesTheErrnoAndLeavesTheTargetAsItWas) {
  fs::path p = dir_ / "big.json";
  write_file_atomically(p.string(), "old");
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  pid_t child = ::fork();
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::string message = test::error_text([&] { write_file_atomically(p.string(), std::string(1 << 20, 'x')); });
    message += "|" + test::error_text([&] {
                 write_files_atomically(
                     {{(dir_ / "a.csv").string(), "small"}, {(dir_ / "b.csv").string(), std::string(8192, 'y')}});
               });
    (void)!::write(pipe_fds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string message;
  char buf[512];
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) message.append(buf, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(message, "cannot write " + p.string() + ": File too large (EFBIG)|cannot write " +
                         (dir_ / "b.csv").string() + ": File too large (EFBIG)");
  EXPECT_EQ(read_all(p), "old");
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"big.json"});  // neither a.csv nor any temporary
}

// Several files replaced together: a rename failing after others succeeded puts them back.
TEST_F(AtomicFileTest, SeveralFilesAreReplacedAllOrNone) {
  std::string a = (dir_ / "a.csv").string(), b = (dir_ / "b.csv").string(), c = (dir_ / "c.csv").string();
  write_file_atomically(a, "old a");
  fs::create_directory(c);  // the third rename fails (a directory is there)
  std::string e = test::error_text([&] { write_files_atomically({{a, "new a"}, {b, "new b"}, {c, "new c"}}); });
  EXPECT_EQ(e.rfind("cannot replace " + c + ": Is a directory (EISDIR)", 0), 0u) << e;
  EXPECT_EQ(read_all(a), "old a");
  EXPECT_FALSE(fs::exists(b));
  EXPECT_EQ(names_in(dir_), (std::vector<std::string>{"a.csv", "c.csv"}));
  fs::remove(c);
  write_files_atomically({{a, "new a"}, {b, "new b"}, {c, "new c"}});
  EXPECT_EQ(read_all(a) + read_all(b) + read_all(c), "new anew bnew c");
  EXPECT_EQ(names_in(dir_), (std::vector<std::string>{"a.csv", "b.csv", "c.csv"}));
}

std::string read_fd(int fd) {
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  return text;
}

// Issue 39: a FIFO is written into, streamed to its reader, and stays a FIFO (never renamed over).
TEST_F(AtomicFileTest, AFifoIsWrittenInPlaceAndStaysAFifo) {
  fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  std::string big(200000, 'z');  // more than a pipe holds: it streams to the reader
  std::string received;
  std::thread reader([&] {
    int fd = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    received = read_fd(fd);
    ::close(fd);
  });
  {
    AtomicFile f(fifo.string());
    EXPECT_TRUE(f.in_place());
    f.stream() << big;
    f.commit();
  }
  reader.join();
  EXPECT_EQ(received.size(), big.size());
  EXPECT_EQ(received, big);
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"pipe"});  // no temporary left beside it
}

// /proc/self/fd/N and /dev/fd/N name the descriptor: a dup of it is written (the pipe gets the bytes).
TEST_F(AtomicFileTest, ADescriptorPathWritesThatDescriptor) {
  for (std::string prefix : {"/proc/self/fd/", "/dev/fd/"}) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    write_file_atomically(prefix + std::to_string(fds[1]), "through " + prefix);
    EXPECT_NE(::fcntl(fds[1], F_GETFD), -1);  // the caller's descriptor is left open
    ::close(fds[1]);
    EXPECT_EQ(read_fd(fds[0]), "through " + prefix);
    ::close(fds[0]);
  }
}

// A descriptor open for appending (the shell's >>) is appended to, never replaced: same inode, old text kept.
TEST_F(AtomicFileTest, ADescriptorKeepsItsAppendModeAndItsFile) {
  fs::path p = dir_ / "log.txt";
  std::ofstream(p) << "first\n";
  struct stat before {};
  ASSERT_EQ(::stat(p.c_str(), &before), 0);
  int fd = ::open(p.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  write_file_atomically("/dev/fd/" + std::to_string(fd), "second\n");
  write_file_atomically("/proc/self/fd/" + std::to_string(fd), "third\n");
  ::close(fd);
  struct stat after {};
  ASSERT_EQ(::stat(p.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(read_all(p), "first\nsecond\nthird\n");
}

// "-" and /dev/stdout are fd 1 (here a pipe put in its place).
TEST_F(AtomicFileTest, DashAndDevStdoutWriteStandardOutput) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::fflush(stdout);
  int saved = ::dup(1);
  ASSERT_EQ(::dup2(fds[1], 1), 1);
  ::close(fds[1]);
  std::string e;
  try {
    write_file_atomically("-", "dash,");
    write_file_atomically("/dev/stdout", "dev");
  } catch (const Error& err) {
    e = err.what();
  }
  ::dup2(saved, 1);
  ::close(saved);
  EXPECT_EQ(e, "");
  EXPECT_EQ(read_fd(fds[0]), "dash,dev");
  ::close(fds[0]);
}

TEST_F(AtomicFileTest, AReadOnlyOrClosedDescriptorIsOneLineNamingIt) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
  EXPECT_EQ(test::error_text([&] { write_file_atomically(path, "x"); }),
            "cannot write " + path + ": Bad file descriptor (EBADF)");
  ::close(fds[0]);
  ::close(fds[1]);
  path = "/dev/fd/" + std::to_string(fds[1]);
  EXPECT_EQ(test::error_text([&] { write_file_atomically(path, "x"); }),
            "cannot write " + path + ": Bad file descriptor (EBADF)");
}

TEST(DescriptorNamed, OnlyExactDescriptorPaths) {
  EXPECT_EQ(descriptor_named("-"), 1);
  EXPECT_EQ(descriptor_named("/dev/stdout"), 1);
  EXPECT_EQ(descriptor_named("/dev/stderr"), 2);
  EXPECT_EQ(descriptor_named("/dev/fd/7"), 7);
  EXPECT_EQ(descriptor_named("/proc/self/fd/12"), 12);
  for (const char* other : {"", "--", "/dev/fd/", "/dev/fd/1x", "/dev/fd/-1", "/proc/self/fd/99999999999", "./-",
                            "/dev/stdin", "dev/stdout", "/proc/1/fd/1"}) {
    EXPECT_EQ(descriptor_named(other), -1) << other;
  }
}

// A private character device (the null device's numbers, made in the temporary folder, never the system's
// /dev): written into, and still the device afterwards.
TEST_F(AtomicFileTest, ADeviceNodeIsWrittenInPlaceNeverReplaced) {
  fs::path node = dir_ / "null";
  if (::mknod(node.c_str(), S_IFCHR | 0600, ::makedev(1, 3)) != 0) {
    if (errno == EPERM) GTEST_SKIP() << "mknod: not permitted here";
    FAIL() << std::strerror(errno);
  }
  int probe = ::open(node.c_str(), O_WRONLY | O_CLOEXEC);
  if (probe < 0) GTEST_SKIP() << "the temporary folder is mounted nodev";
  ::close(probe);
  write_file_atomically(node.string(), std::string(100000, 'x'));
  write_files_atomically({{node.string(), "a"}, {(dir_ / "b.csv").string(), "b"}});
  struct stat st {};
  ASSERT_EQ(::stat(node.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(st.st_rdev, ::makedev(1, 3));
  EXPECT_EQ(read_all(dir_ / "b.csv"), "b");
  EXPECT_EQ(names_in(dir_), (std::vector<std::string>{"b.csv", "null"}));
}

TEST_F(AtomicFileTest, ASocketIsRefusedAndLeftAlone) {
  fs::path path = dir_ / "sock";
  int s = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_EQ(test::error_text([&] { write_file_atomically(path.string(), "x"); }),
            "cannot write " + path.string() + ": it is a socket; give a file, a FIFO or '-' (stdout)");
  EXPECT_TRUE(fs::is_socket(path));
  ::close(s);
}

}  // namespace
}  // namespace cuprobe
