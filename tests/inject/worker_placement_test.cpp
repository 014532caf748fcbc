#include "inject/worker_placement.h"

#include <gtest/gtest.h>

namespace cuprobe::inject {
namespace {

cpu_set_t cpus(std::initializer_list<int> list) {
  cpu_set_t s;
  CPU_ZERO(&s);
  for (int c : list) CPU_SET(c, &s);
  return s;
}

TEST(WorkerPlacement, TheOthersWhenTheTargetWasPinned) {
  cpu_set_t out = cpus_outside(cpus({2, 3, 4, 5}), cpus({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(CPU_COUNT(&out), 4);
  for (int c : {0, 1, 6, 7}) EXPECT_TRUE(CPU_ISSET(c, &out)) << c;
}

TEST(WorkerPlacement, NoneWhenTheTargetHasThemAll) {
  cpu_set_t out = cpus_outside(cpus({0, 1, 2, 3}), cpus({0, 1, 2, 3}));
  EXPECT_EQ(CPU_COUNT(&out), 0);
}

TEST(WorkerPlacement, OnlyCpusTheMachineOffers) {
  cpu_set_t out = cpus_outside(cpus({0}), cpus({0, 1}));
  EXPECT_EQ(CPU_COUNT(&out), 1);
  EXPECT_TRUE(CPU_ISSET(1, &out));
}

}  // namespace
}  // namespace cuprobe::inject
