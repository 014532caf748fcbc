// Runtime call names (CUDA and HIP) and the operators around a launch.
#include "analysis/launch_context.h"

#include <gtest/gtest.h>

#include <map>

#include "analysis/analyze.h"

namespace cuprobe {
namespace {

TEST(RuntimeCallNames, LaunchesCudaAndHip) {
  for (const char* n :
       {"cudaLaunchKernel", "cuLaunchKernel", "cudaLaunchKernelExC", "cudaGraphLaunch", "hipLaunchKernel",
        "hipExtModuleLaunchKernel", "hipModuleLaunchKernel", "hipGraphLaunch", "hipExtLaunchKernel"}) {
    EXPECT_TRUE(is_launch_call(n)) << n;
  }
  EXPECT_FALSE(is_launch_call("hipMemcpyAsync"));
  EXPECT_TRUE(is_graph_launch_call("hipGraphLaunch"));
  EXPECT_TRUE(is_graph_launch_call("cudaGraphLaunch"));
  EXPECT_FALSE(is_graph_launch_call("hipLaunchKernel"));
}

TEST(RuntimeCallNames, SynchronizingCallsCudaAndHip) {
  for (const char* n : {"cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaMemcpy",
                        "cuMemcpyDtoH_v2", "hipStreamSynchronize", "hipDeviceSynchronize", "hipEventSynchronize",
                        "hipMemcpy", "hipMemcpyWithStream", "hipMemcpyDtoH", "cudaMemcpy_v3020", "cudaMemcpy_ptds",
                        "cuMemcpyDtoH_v2_ptds", "cudaStreamSynchronize_v3020"}) {
    EXPECT_TRUE(is_synchronizing_call(n)) << n;
  }
  for (const char* n :
       {"cudaMemcpyAsync", "hipMemcpyAsync", "hipMemcpyDtoHAsync", "hipMemsetAsync", "hipLaunchKernel",
        "hipMemcpyWithStreamX", "cudaMemcpyAsync_v3020", "cudaMemcpy_v", "cudaMemcpy_vx", "cuMemcpyDtoHAsync_v2"}) {
    EXPECT_FALSE(is_synchronizing_call(n)) << n;
  }
}

// A ROCm eager decode: 10 short kernels in a 1 ms window, launched with HIP calls, with a
// .item()-style hipMemcpyWithStream and a hipStreamSynchronize.
Profile rocm_eager_window() {
  Profile p;
  p.source = "kineto";
  auto call = [&](const char* name, TimeNs t, std::int64_t corr) {
    p.cpu.push_back(CpuRange{.kind = CpuRangeKind::kRuntime,
                             .name = p.strings.intern(name),
                             .start = t,
                             .end = t + 4'000,
                             .pid = 1,
                             .tid = 1,
                             .correlation = corr});
  };
  StringId kernel = p.strings.intern("Cijk_Alik_Bljk_BBS_BH_MT64x64x64_MI16x16x1");
  for (int i = 0; i < 10; ++i) {
    TimeNs t = 10'000 + i * 90'000;
    call(i % 3 == 0 ? "hipLaunchKernel" : i % 3 == 1 ? "hipExtModuleLaunchKernel" : "hipModuleLaunchKernel", t, i + 1);
    GpuActivity a;
    a.name = kernel;
    a.start = t + 20'000;
    a.end = a.start + 5'000;
    a.device = 0;
    a.stream = 1;
    a.correlation = i + 1;
    p.gpu.push_back(a);
  }
  call("hipMemcpyWithStream", 950'000, 100);
  call("hipStreamSynchronize", 960'000, 101);
  call("hipMemcpyAsync", 970'000, 102);
  p.gpu.back().end = 1'000'000;  // window: 0.02 .. 1.0 ms
  p.sort_by_time();
  return p;
}

TEST(RuntimeCallNames, HipCallsCountAsLaunchesAndSyncsInTheFindings) {
  std::vector<Profile> ps;
  ps.push_back(rocm_eager_window());
  AnalyzeReport r = analyze_profiles(ps, {});
  const Finding* idle = nullptr;
  for (const auto& f : r.findings) {
    if (f.id == "gpu_idle") idle = &f;
  }
  ASSERT_NE(idle, nullptr);
  std::map<std::string, double> numbers(idle->numbers.begin(), idle->numbers.end());
  EXPECT_EQ(numbers.at("launches_per_step"), 10);
  EXPECT_EQ(numbers.at("syncs_per_step"), 2);  // hipMemcpyWithStream, hipStreamSynchronize; not the Async copy
}

TEST(LaunchWithEnclosing, OperatorsAroundEachWantedLaunchOutermostFirst) {
  Profile p;
  auto range = [&](CpuRangeKind kind, const char* name, TimeNs start, TimeNs end, std::int64_t tid,
                   std::int64_t corr = -1) {
    p.cpu.push_back(CpuRange{.kind = kind,
                             .name = p.strings.intern(name),
                             .start = start,
                             .end = end,
                             .pid = 1,
                             .tid = tid,
                             .correlation = corr});
  };
  range(CpuRangeKind::kOperator, "outer", 0, 100, 1);
  range(CpuRangeKind::kOperator, "sibling", 5, 10, 1);
  range(CpuRangeKind::kRuntime, "hipLaunchKernel", 20, 25, 1, 1);
  range(CpuRangeKind::kRuntime, "hipLaunchKernel", 30, 35, 1, 2);  // same start as "inner", listed first
  range(CpuRangeKind::kOperator, "inner", 30, 60, 1);
  range(CpuRangeKind::kOperator, "other_thread", 0, 100, 2);
  range(CpuRangeKind::kRuntime, "hipLaunchKernel", 70, 75, 1, 3);  // not wanted
  range(CpuRangeKind::kRuntime, "hipLaunchKernel", 200, 205, 1, 4);
  p.sort_by_time();
  std::map<std::int64_t, std::vector<std::string>> seen;
  for_each_launch_with_enclosing(p, {1, 2, 4}, [&](const CpuRange& launch, std::span<const CpuRange* const> ops) {
    auto& names = seen[launch.correlation];
    for (const CpuRange* op : ops) names.emplace_back(p.name_of(op->name));
  });
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[1], (std::vector<std::string>{"outer"}));
  EXPECT_EQ(seen[2], (std::vector<std::string>{"outer", "inner"}));
  EXPECT_TRUE(seen[4].empty());
}

}  // namespace
}  // namespace cuprobe
