#include "common/usable_cpus.h"

#include <gtest/gtest.h>
#include <sched.h>

namespace cuprobe {
namespace {

// The CPUs of the affinity mask, not of the machine: narrowed to one, one (analyze then reads one file at a time).
TEST(UsableCpus, FollowTheAffinityMask) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
  EXPECT_EQ(usable_cpus(), static_cast<unsigned>(CPU_COUNT(&mine)));
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE && CPU_COUNT(&one) == 0; ++cpu) {
    if (CPU_ISSET(cpu, &mine)) CPU_SET(cpu, &one);
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  EXPECT_EQ(usable_cpus(), 1u);
  ASSERT_EQ(sched_setaffinity(0, sizeof mine, &mine), 0);
}

}  // namespace
}  // namespace cuprobe
