#include "import/kineto_json/correlation_by_process.h"

#include <gtest/gtest.h>

#include "import/kineto_json/kineto_importer.h"
#include "support/run_cuprobe.h"

namespace cuprobe {
namespace {

CpuRange launch(std::int64_t pid, std::int64_t correlation, TimeNs at) {
  CpuRange r;
  r.kind = CpuRangeKind::kRuntime;
  r.pid = r.tid = pid;
  r.correlation = correlation;
  r.start = at;
  r.end = at + 1;
  return r;
}

GpuActivity on(std::int32_t device, std::int64_t correlation, TimeNs at) {
  GpuActivity a;
  a.device = device;
  a.correlation = correlation;
  a.start = at;
  a.end = at + 1;
  return a;
}

TEST(CorrelationByProcess, EachGpuActivityGetsTheProcessThatLaunchedIt) {
  Profile p = import_kineto_json(test::data_path("format_two_processes.json"));
  ASSERT_FALSE(p.gpu.empty());
  for (const auto& a : p.gpu) EXPECT_EQ(a.pid, a.device == 0 ? 100 : 200) << p.name_of(a.name);
}

TEST(CorrelationByProcess, OneLaunchingProcessTakesEveryGpuActivity) {
  Profile p;
  p.cpu = {launch(7, 1, 0)};
  p.gpu = {on(0, 1, 5), on(1, -1, 6)};  // a kernel without correlation, on another GPU: still process 7's
  link_ids_per_process(p);
  EXPECT_EQ(p.gpu[0].pid, 7);
  EXPECT_EQ(p.gpu[1].pid, 7);
  EXPECT_EQ(p.stats.count(ImportStat::kGpuProcessUnknown), 0);
}

TEST(CorrelationByProcess, WithoutALaunchAnActivityTakesItsDevicesProcessOrIsCounted) {
  Profile p;
  p.cpu = {launch(10, 1, 0), launch(20, 2, 0)};
  p.gpu = {on(0, 1, 5), on(1, 2, 5), on(0, 99, 6), on(3, -1, 7), on(3, 98, 8)};
  link_ids_per_process(p);
  EXPECT_EQ(p.gpu[0].pid, 10);
  EXPECT_EQ(p.gpu[1].pid, 20);
  EXPECT_EQ(p.gpu[2].pid, 10);  // its launch is not in the trace: GPU 0's process
  EXPECT_EQ(p.gpu[3].pid, -1);  // GPU 3: no launch says whose it is
  EXPECT_EQ(p.stats.count(ImportStat::kGpuProcessUnknown), 2);
}

// Two processes (20 and 30) launching ids 1 and 2 for GPUs 0 and 1; process 20 launches id 1 at `late`, GPU 0
// starts it at `gpu0_start`. Returns the pid GPU 0's activities were given, and the count of pairings by order.
std::pair<std::int64_t, std::int64_t> gpu0_process(TimeNs late, TimeNs gpu0_start) {
  Profile p;
  p.cpu = {launch(30, 1, 0), launch(20, 1, late), launch(30, 2, 10), launch(20, 2, 10)};
  p.gpu = {on(1, 1, 5), on(0, 1, gpu0_start), on(0, 2, 15), on(1, 2, 15)};
  link_ids_per_process(p);
  for (const auto& a : p.gpu) {
    if (a.device == 1) {
      EXPECT_EQ(a.pid, p.gpu[1].pid == 20 ? 30 : 20);  // the other process
    }
  }
  return {p.gpu[1].pid, p.stats.count(ImportStat::kGpuProcessByOrder)};
}

TEST(CorrelationByProcess, ProcessesInLockstepArePairedWithTheirGpusInOrderAndCounted) {
  // Every id shared and every launch before both GPUs' kernels: nothing tells the processes apart.
  EXPECT_EQ(gpu0_process(0, 5), std::make_pair(std::int64_t{20}, std::int64_t{2}));
  // Process 20 launched id 1 after GPU 0 began it: GPU 0 is 30's, GPU 1 the other's, for certain.
  EXPECT_EQ(gpu0_process(3, 1), std::make_pair(std::int64_t{30}, std::int64_t{0}));
}

TEST(CorrelationByProcess, NoLaunchesLeaveTheProcessesUnknown) {
  Profile p;
  p.gpu = {on(0, 1, 5), on(1, 2, 5)};
  link_ids_per_process(p);
  EXPECT_EQ(p.gpu[0].pid, -1);
  EXPECT_EQ(p.gpu[1].pid, -1);
  EXPECT_EQ(p.stats.count(ImportStat::kGpuProcessUnknown), 0);
}

}  // namespace
}  // namespace cuprobe
