#include "common/stop_signals.h"

#include <gtest/gtest.h>
#include <poll.h>

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

}  // namespace
}  // namespace cuprobe
