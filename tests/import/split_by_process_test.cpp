#include "import/split_by_process.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

GpuActivity kernel(Profile& p, std::int32_t pid, std::int32_t device, TimeNs start) {
  GpuActivity a;
  a.name = p.strings.intern("gemm");
  a.pid = pid;
  a.device = device;
  a.start = start;
  a.end = start + 10;
  return a;
}

// Two torchrun ranks recorded into one run file: rank 1 started first (lower
// pid), so the order comes from RANK, not from the pid.
Profile two_process_run() {
  Profile p;
  p.file = "tp2.cuprobe";
  p.source = "cuprobe-run";
  p.processes = {{100, "python train.py", 1, 2}, {200, "python train.py", 0, 2}, {50, "torchrun", {}, {}}};
  p.devices = {{0, "NVIDIA H200"}, {1, "NVIDIA H200"}};
  p.gpu = {kernel(p, 100, 1, 0), kernel(p, 200, 0, 5), kernel(p, 100, 1, 20)};
  CpuRange r;
  r.pid = 200;
  r.name = p.strings.intern("decode_step");
  p.cpu = {r};
  p.counters = {{0, 0, 10, p.strings.intern("sm_active"), 0.5}, {1, 0, 10, p.strings.intern("sm_active"), 0.9}};
  p.stats.add(ImportStat::kLostRecords, "3 dropped");
  p.notices = {"library pid 100: kernels timed by software instrumentation"};
  return p;
}

TEST(SplitByProcess, EachProcessWithGpuWorkBecomesItsRank) {
  std::vector<Profile> ranks = split_by_process(two_process_run());
  ASSERT_EQ(ranks.size(), 2u);  // the launcher (no GPU work) is no rank
  EXPECT_EQ(ranks[0].rank, 0);
  EXPECT_EQ(ranks[0].file, "tp2.cuprobe (pid 200)");
  EXPECT_EQ(ranks[0].gpu.size(), 1u);
  ASSERT_EQ(ranks[0].cpu.size(), 1u);
  EXPECT_EQ(ranks[0].name_of(ranks[0].cpu[0].name), "decode_step");
  ASSERT_EQ(ranks[0].counters.size(), 1u);
  EXPECT_EQ(ranks[0].counters[0].device, 0);
  ASSERT_EQ(ranks[0].devices.size(), 1u);
  EXPECT_EQ(ranks[1].rank, 1);
  EXPECT_EQ(ranks[1].world_size, 2);
  EXPECT_EQ(ranks[1].gpu.size(), 2u);
  EXPECT_TRUE(ranks[1].cpu.empty());
  ASSERT_EQ(ranks[1].counters.size(), 1u);
  EXPECT_EQ(ranks[1].counters[0].device, 1);
  // The file's counts and notices are shown once, with the first rank.
  EXPECT_EQ(ranks[0].stats.count(ImportStat::kLostRecords), 1);
  EXPECT_EQ(ranks[1].stats.count(ImportStat::kLostRecords), 0);
  EXPECT_EQ(ranks[0].notices.size(), 1u);
  EXPECT_TRUE(ranks[1].notices.empty());
}

TEST(SplitByProcess, EachRankKeepsItsOperatorsShapes) {
  Profile p = two_process_run();
  OpInputs gemm;
  gemm.args.push_back(OpArg{.type = "c10::BFloat16", .dims = {4096, 4096}});
  p.op_inputs = {OpInputs{}, gemm};
  CpuRange op;
  op.kind = CpuRangeKind::kOperator;
  op.pid = 100;
  op.name = p.strings.intern("aten::mm");
  op.inputs = 1;
  p.cpu.push_back(op);
  std::vector<Profile> ranks = split_by_process(std::move(p));
  ASSERT_EQ(ranks.size(), 2u);
  ASSERT_EQ(ranks[1].cpu.size(), 1u);
  const std::int32_t at = ranks[1].cpu[0].inputs;
  ASSERT_GE(at, 0);
  ASSERT_LT(static_cast<std::size_t>(at), ranks[1].op_inputs.size());  // was lost: the shapes stayed with the whole
  EXPECT_EQ(ranks[1].op_inputs[static_cast<std::size_t>(at)].args.at(0).dims, (std::vector<std::int64_t>{4096, 4096}));
}

TEST(SplitByProcess, UnrankedProcessesTakeTheRanksNobodyDeclared) {
  Profile p = two_process_run();
  p.processes[0].rank.reset();  // pid 100 said nothing; pid 200 is rank 0
  p.gpu.push_back(kernel(p, 300, 2, 30));
  p.processes.push_back({300, "python worker.py", 0, 2});  // claims rank 0 again
  std::vector<Profile> ranks = split_by_process(std::move(p));
  ASSERT_EQ(ranks.size(), 3u);
  EXPECT_EQ(ranks[0].file, "tp2.cuprobe (pid 200)");
  EXPECT_EQ(ranks[0].rank, 0);
  EXPECT_EQ(ranks[1].rank, 1);
  EXPECT_EQ(ranks[2].rank, 2);
}

TEST(SplitByProcess, OneProcessStaysOneProfileAndTakesItsRank) {
  Profile p = two_process_run();
  p.gpu.erase(p.gpu.begin() + 1);  // only pid 100 (rank 1 of 2) used the GPU
  std::vector<Profile> ranks = split_by_process(std::move(p));
  ASSERT_EQ(ranks.size(), 1u);
  EXPECT_EQ(ranks[0].file, "tp2.cuprobe");
  EXPECT_EQ(ranks[0].rank, 1);
  EXPECT_EQ(ranks[0].world_size, 2);
  EXPECT_EQ(ranks[0].counters.size(), 2u);
}

TEST(SplitByProcess, ActivityWithoutPidsIsLeftAlone) {
  Profile p;
  p.gpu = {kernel(p, -1, 0, 0), kernel(p, -1, 1, 5)};
  std::vector<Profile> ranks = split_by_process(std::move(p));
  ASSERT_EQ(ranks.size(), 1u);
  EXPECT_FALSE(ranks[0].rank);
}

}  // namespace
}  // namespace cuprobe
