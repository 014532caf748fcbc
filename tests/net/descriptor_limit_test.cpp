#include "net/descriptor_limit.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

namespace cuprobe {
namespace {

// Runs `body` in a child with RLIMIT_NOFILE set to soft/hard (limits never
// come back up for this process); the child's exit code.
int in_child_with_limit(rlim_t soft, rlim_t hard, const std::function<int()>& body) {
  pid_t pid = fork();
  if (pid == 0) {
    rlimit lim{soft, hard};
    if (setrlimit(RLIMIT_NOFILE, &lim) != 0) _exit(90);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

rlim_t soft_limit() {
  rlimit lim{};
  getrlimit(RLIMIT_NOFILE, &lim);
  return lim.rlim_cur;
}

TEST(DescriptorLimit, RaisesTheSoftLimitUpToTheHardOne) {
  EXPECT_EQ(
      in_child_with_limit(64, 4096, [] { return raise_descriptor_limit(164).empty() && soft_limit() >= 164 ? 0 : 1; }),
      0);
  EXPECT_EQ(
      in_child_with_limit(64, 4096, [] { return raise_descriptor_limit(0).empty() && soft_limit() == 4096 ? 0 : 1; }),
      0);
  EXPECT_EQ(
      in_child_with_limit(64, 64, [] { return raise_descriptor_limit(32).empty() && soft_limit() == 64 ? 0 : 1; }), 0);
}

TEST(DescriptorLimit, SaysWhyWhenTheHardLimitIsLower) {
  EXPECT_EQ(in_child_with_limit(64, 64,
                                [] {
                                  std::string why = raise_descriptor_limit(164);
                                  return why == "need 164 open files, the hard limit is 64" ? 0 : 1;
                                }),
            0);
}

}  // namespace
}  // namespace cuprobe
