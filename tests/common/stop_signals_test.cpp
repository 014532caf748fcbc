#include "common/stop_signals.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/atomic_file.h"
#include "import/temp_dir.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

void custom_handler(int) {}

TEST(StopFlag, SignalSetsTheFlagAndTheOldHandlerComesBack) {
  struct sigaction mine {
  }, before{};
  mine.sa_handler = custom_handler;
  sigemptyset(&mine.sa_mask);
  sigaction(SIGTERM, &mine, &before);
  {
    StopFlag stop;
    EXPECT_EQ(stop.signal(), 0);
    raise(SIGTERM);  // handled: the test process lives on
    EXPECT_EQ(stop.signal(), SIGTERM);
    EXPECT_EQ(*stop.flag(), SIGTERM);
  }
  struct sigaction now {};
  sigaction(SIGTERM, nullptr, &now);
  EXPECT_EQ(now.sa_handler, custom_handler);
  sigaction(SIGTERM, &before, nullptr);
}

TEST(SignalFd, DeliversThroughTheDescriptorAndRestoresTheMask) {
  {
    SignalFd signals({SIGUSR2});
    raise(SIGUSR2);  // blocked: pending until read
    pollfd p{signals.fd(), POLLIN, 0};
    ASSERT_EQ(poll(&p, 1, 1000), 1);
    auto got = signals.next();
    ASSERT_TRUE(got);
    EXPECT_EQ(got->signal, SIGUSR2);
    EXPECT_FALSE(got->from_terminal);
    EXPECT_FALSE(signals.next());
  }
  sigset_t mask;
  sigprocmask(SIG_BLOCK, nullptr, &mask);
  EXPECT_FALSE(sigismember(&mask, SIGUSR2));
}

TEST(SignalFd, AnIgnoredSignalStillArrivesAndIsIgnoredAgainAfter) {
  struct sigaction ignore {
  }, before{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGUSR2, &ignore, &before);
  {
    SignalFd signals({SIGUSR2});
    raise(SIGUSR2);
    auto got = signals.next();
    ASSERT_TRUE(got);
    EXPECT_EQ(got->signal, SIGUSR2);
  }
  struct sigaction now {};
  sigaction(SIGUSR2, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_IGN);
  sigaction(SIGUSR2, &before, nullptr);
}

// The default stop (issue 39): one line, the signal's own status, and the temporary file of a
// write in progress removed, the target left as it was.
TEST(DefaultStop, SaysSoEndsBySignalAndRemovesTheTemporaryFile) {
  TempDir out, logs;
  std::string target = out.path() + "/result.json", err = logs.path() + "/err";
  std::ofstream(target) << "before";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 2);
    install_default_stop("cuprobe test");
    AtomicFile file(target);
    file.stream() << "half";
    ::raise(SIGTERM);
    ::_exit(0);  // not reached
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_EQ(test::slurp(err), "cuprobe test: stopped by SIGTERM\n");
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(out.path())) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"result.json"});
  EXPECT_EQ(test::slurp(target), "before");
}

// A SIGINT the process was started with ignored (a background job's) stays ignored.
TEST(DefaultStop, AnIgnoredSignalStaysIgnored) {
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGINT, SIG_IGN);
    install_default_stop("cuprobe test");
    ::raise(SIGINT);
    ::_exit(7);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 7) << status;
}

}  // namespace
}  // namespace cuprobe
