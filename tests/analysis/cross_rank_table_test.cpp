// Across ranks (issue 37): clocks aligned on collectives, the cross-rank table and the straggler, on rank sets
// built from real traces (tests/data/make_rank_set.py) with a planted straggler and planted clock offsets.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/analyze.h"
#include "analysis/clock_alignment.h"
#include "import/load_profiles.h"
#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe {
namespace {

using test::data_path;

struct Truth {
  int straggler = -1;
  double delay_us = 0;
  std::vector<double> offsets_us;
};

// Writes a rank set into a fresh directory; its truth.json is read back.
std::string make_rank_set(const std::vector<std::string>& args, Truth& truth) {
  std::string dir = test::temp_dir() + "/ranks";
  std::vector<std::string> all{data_path("make_rank_set.py"), "--out", dir};
  all.insert(all.end(), args.begin(), args.end());
  auto r = test::run_program("/usr/bin/python3", all);
  if (r.exit_code != 0) throw std::runtime_error("make_rank_set.py failed: " + r.err);
  auto j = nlohmann::json::parse(test::slurp(dir + "/truth.json"));
  truth.straggler = j["straggler"];
  truth.delay_us = j["delay_us"];
  truth.offsets_us = j["offsets_us"].get<std::vector<double>>();
  std::remove((dir + "/truth.json").c_str());
  return dir;
}

std::vector<std::string> tp2_bases() {
  return {"--base", data_path("tp2_mlp_decode_rank0.json.gz"), "--base", data_path("tp2_mlp_decode_rank1.json.gz")};
}

// A rank set from the tp2 pair, ranks alternating between its two traces.
std::string make_tp2_rank_set(std::initializer_list<const char*> args, Truth& truth) {
  std::vector<std::string> all = tp2_bases();
  all.insert(all.end(), args.begin(), args.end());
  return make_rank_set(all, truth);
}

const Finding* find(const std::vector<Finding>& findings, const std::string& id) {
  for (const auto& f : findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

void expect_offsets(const CrossRank& t, const Truth& truth) {
  ASSERT_EQ(t.ranks.size(), truth.offsets_us.size());
  for (std::size_t r = 0; r < t.ranks.size(); ++r)
    EXPECT_NEAR(t.ranks[r].clock_offset_ms * 1e3, truth.offsets_us[r], 50.0) << "rank " << r;
}

void expect_straggler(const AnalyzeReport& report, const Truth& truth) {
  ASSERT_TRUE(report.cross_rank);
  const CrossRank& t = *report.cross_rank;
  ASSERT_TRUE(t.straggler);
  EXPECT_EQ(t.straggler->rank, truth.straggler);
  EXPECT_NEAR(t.straggler->late_median_ms * 1e3, truth.delay_us, 0.05 * truth.delay_us);
  EXPECT_GT(t.straggler->late_calls, 50);
  const Finding* f = find(report.findings, "straggler_rank");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rank, truth.straggler);
  ASSERT_TRUE(f->what_if.step_ms_after_alone);
  EXPECT_LT(*f->what_if.step_ms_after_alone, f->what_if.step_ms_now);
  // Its lateness summed over its late calls is the delay at each.
  EXPECT_NEAR(t.ranks[t.straggler->position].late_ms * 1e3,
              static_cast<double>(t.straggler->late_calls) * truth.delay_us,
              0.05 * static_cast<double>(t.straggler->late_calls) * truth.delay_us);
}

// The tp2 pair ran on one host: one clock, so offsets near 0, on all 64 all-reduces.
TEST(CrossRank, RanksOnOneClockGetOffsetsNearZero) {
  auto r = analyze_profiles(
      load_profiles({data_path("tp2_mlp_decode_rank0.json.gz"), data_path("tp2_mlp_decode_rank1.json.gz")}), {});
  ASSERT_TRUE(r.cross_rank);
  EXPECT_EQ(r.cross_rank->matched_calls, 64u);
  EXPECT_EQ(r.cross_rank->matching, "communicator");  // torch 2.11 names the process group on every NCCL kernel
  EXPECT_EQ(r.cross_rank->calls.front().communicator, "pg 0 (default_pg) ranks [0, 1]");
  EXPECT_EQ(r.cross_rank->calls.front().ranks, 2);
  EXPECT_EQ(r.cross_rank->reference_rank, 0);
  EXPECT_EQ(r.cross_rank->ranks[0].clock_offset_ms, 0.0);
  EXPECT_LT(std::abs(r.cross_rank->ranks[1].clock_offset_ms), 0.010);  // 10 us
  EXPECT_LT(r.cross_rank->ranks[1].clock_residual_us, 10.0);
  // Rank 1 arrived 0.5 s late at the first all-reduce (start-up skew) and, host-bound, ~0.15 ms late at every other
  // one (collective_wait's median excess on rank 0): the straggler, its cost per step the 8 calls of a step, its
  // extra the GPU idle time before its arrivals; the one-off first call is no part of a step's cost.
  ASSERT_EQ(r.cross_rank->calls.size(), 64u);
  EXPECT_EQ(r.cross_rank->ranks[r.cross_rank->calls[0].last].rank, 1);
  EXPECT_GT(r.cross_rank->calls[0].others_wait_ms, 500.0);
  ASSERT_TRUE(r.cross_rank->straggler);
  const StragglerAnalysis& s = *r.cross_rank->straggler;
  EXPECT_EQ(s.rank, 1);
  EXPECT_NEAR(s.late_median_ms, 0.154, 0.01);
  EXPECT_NEAR(s.cost_ms_per_step, 8 * s.late_median_ms, 0.2);
  EXPECT_LT(s.cost_ms_per_step, 2.0);
  EXPECT_GT(s.extra_idle_ms, 0.8 * s.cost_ms_per_step);
  const Finding* f = find(r.findings, "straggler_rank");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rank, 1);
  EXPECT_TRUE(f->kernels.empty()) << f->kernels.front();  // no kernel explains it: host gaps do
  EXPECT_NE(f->title.find("GPU idle (host gaps)"), std::string::npos) << f->title;
}

TEST(CrossRank, EightRanksPlantedKernelStragglerAndOffsets) {
  Truth truth;
  std::string dir =
      make_tp2_rank_set({"--ranks", "8", "--straggler", "5", "--delay-us", "300", "--offset-spread-us", "4000"}, truth);
  AnalyzeReport report = analyze_profiles(load_profiles({dir}), {});
  expect_straggler(report, truth);
  expect_offsets(*report.cross_rank, truth);
  const StragglerAnalysis& s = *report.cross_rank->straggler;
  ASSERT_FALSE(s.extra_kernels_ms.empty());
  EXPECT_EQ(s.extra_kernels_ms.front().first, "straggler_extra_work_kernel");
  const Finding* f = find(report.findings, "straggler_rank");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->kernels.empty());
  EXPECT_EQ(f->kernels.front(), "straggler_extra_work_kernel");
}

// Traces that name the process group on record_param_comms alone, not on its kernels: each kernel takes its
// operator's (the same External id), and the calls are matched by communicator all the same.
TEST(CrossRank, CommunicatorFromTheOperatorWhereKernelsDoNotNameIt) {
  Truth truth;
  std::string dir = make_tp2_rank_set({"--ranks", "4", "--straggler", "3", "--delay-us", "300", "--offset-spread-us",
                                       "2000", "--groups-on-operators-only"},
                                      truth);
  std::vector<Profile> profiles = load_profiles({dir});
  ASSERT_EQ(profiles.size(), 4u);
  std::size_t kernels_named = 0, operators_named = 0;
  for (const GpuActivity& a : profiles[0].gpu) kernels_named += a.communicator != kNoString ? 1 : 0;
  for (const CpuRange& r : profiles[0].cpu) operators_named += r.communicator != kNoString ? 1 : 0;
  EXPECT_EQ(kernels_named, 0u);
  EXPECT_EQ(operators_named, 64u);  // record_param_comms, one per all-reduce
  AnalyzeReport report = analyze_profiles(profiles, {});
  ASSERT_TRUE(report.cross_rank);
  EXPECT_EQ(report.cross_rank->matching, "communicator");
  ASSERT_FALSE(report.cross_rank->calls.empty());
  EXPECT_EQ(report.cross_rank->calls.front().communicator, "pg 0 (default_pg) ranks [0, 1, 2, 3]");
  EXPECT_EQ(report.cross_rank->matched_calls, 64u);
  expect_offsets(*report.cross_rank, truth);
  expect_straggler(report, truth);
}

// A host gap instead of a kernel, and the clocks several ms apart; every rank a copy of tp2's rank 1, so the
// straggler's extra idle time is the planted gaps alone.
TEST(CrossRank, EightRanksPlantedHostGap) {
  Truth truth;
  std::vector<std::string> args{"--base", data_path("tp2_mlp_decode_rank1.json.gz")};
  for (const char* a :
       {"--ranks", "8", "--straggler", "2", "--delay-us", "200", "--kind", "gap", "--offset-spread-us", "9000"})
    args.emplace_back(a);
  std::string dir = make_rank_set(args, truth);
  AnalyzeReport report = analyze_profiles(load_profiles({dir}), {});
  expect_straggler(report, truth);
  expect_offsets(*report.cross_rank, truth);
  const StragglerAnalysis& s = *report.cross_rank->straggler;
  // 63 late calls over its steps: the idle time before its arrivals grew by the delay at each.
  double steps = static_cast<double>(report.cross_rank->ranks[s.position].steps);
  ASSERT_GT(steps, 0);
  EXPECT_NEAR(s.extra_idle_ms * steps, 0.2 * 63, 0.1 * 0.2 * 63);
}

// A shared trace without collectives (an MoE decode), one all-reduce inserted after every 40th kernel.
TEST(CrossRank, EightRanksFromAnMoeTraceWithInsertedCollectives) {
  std::string base = test::shared_trace("dsv3_mla_moe_bs4_decode.json.gz");
  if (base.empty()) GTEST_SKIP() << "../shared/traces is not here";
  Truth truth;
  std::string dir = make_rank_set({"--base", base, "--insert-collectives-every", "40", "--ranks", "8", "--straggler",
                                   "7", "--delay-us", "150", "--offset-spread-us", "2500"},
                                  truth);
  AnalyzeReport report = analyze_profiles(load_profiles({dir}), {});
  ASSERT_TRUE(report.cross_rank);
  EXPECT_EQ(report.cross_rank->matching, "stream order");  // the inserted kernels name no communicator
  expect_offsets(*report.cross_rank, truth);
  ASSERT_TRUE(report.cross_rank->straggler);
  EXPECT_EQ(report.cross_rank->straggler->rank, 7);
  EXPECT_NEAR(report.cross_rank->straggler->late_median_ms * 1e3, 150.0, 7.5);
}

// 64 ranks through the CLI, which releases each rank's Profile once analysed: the same answer.
TEST(CrossRank, SixtyFourRanksThroughTheCli) {
  Truth truth;
  std::string dir = make_tp2_rank_set(
      {"--ranks", "64", "--straggler", "41", "--delay-us", "250", "--offset-spread-us", "5000"}, truth);
  std::string csv = test::temp_dir();
  auto run = test::run_cuprobe({"analyze", "--json", "--csv", csv, dir});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  const auto& t = j["cross_rank"];
  ASSERT_EQ(t["ranks"].size(), 64u);
  for (std::size_t r = 0; r < 64; ++r)
    EXPECT_NEAR(t["ranks"][r]["clock_offset_ms"].get<double>() * 1e3, truth.offsets_us[r], 50.0) << r;
  EXPECT_EQ(t["straggler"]["rank"], 41);
  EXPECT_EQ(t["matching"], "communicator");
  EXPECT_EQ(t["calls"][0]["ranks"], 64);  // the set's one communicator (make_rank_set.py widens it to all ranks)
  EXPECT_NEAR(t["straggler"]["late_median_ms"].get<double>() * 1e3, 250.0, 12.5);
  bool found = false;
  for (const auto& f : j["findings"]) found = found || (f["id"] == "straggler_rank" && f["rank"] == 41);
  EXPECT_TRUE(found);
  EXPECT_NE(test::slurp(csv + "/ranks.csv").find("clock_offset_ms"), std::string::npos);
  EXPECT_NE(test::slurp(csv + "/collectives.csv").find("last_rank"), std::string::npos);
  EXPECT_NE(test::slurp(csv + "/collectives.csv").find(",64,communicator\r\n"), std::string::npos);  // ranks, matching
  auto text = test::run_cuprobe({"analyze", dir});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("across 64 ranks:"), std::string::npos);
  EXPECT_NE(text.out.find("straggler: rank 41"), std::string::npos);
}

// The peak RSS in KiB of `cuprobe ARGS` run on one CPU (the first this test may use), from the child's own
// rusage (at least this process's resident pages at the fork); its output is dropped. On one CPU analyze reads one file
// at a time (load_profiles reads as many at once as the CPUs it may run on), so the peak does not depend on the
// machine's cores.
long peak_rss_kib_on_one_cpu(std::vector<std::string> args) {
  std::vector<char*> argv;
  std::string binary = CUPROBE_BINARY;
  argv.push_back(binary.data());
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  cpu_set_t mine, one;
  CPU_ZERO(&one);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) throw std::runtime_error("sched_getaffinity failed");
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &mine)) {
      CPU_SET(cpu, &one);
      break;
    }
  }
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    if (sched_setaffinity(0, sizeof one, &one) != 0) _exit(126);
    if (!std::freopen("/dev/null", "w", stdout)) _exit(126);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("cuprobe " + args.front() + " failed (status " + std::to_string(status) + ")");
  return usage.ru_maxrss;
}

// Issue 37: analyze's peak memory over many ranks is the ranks read at once plus what it keeps per rank (the
// per-rank report and summary), not every rank's Profile. On one CPU (one file read at a time), 60 ranks more (64
// against 4) must add less than half of one rank's own cost: analyze of 1 rank less the process that reads
// nothing (`cuprobe --version`), ~10 MiB here, mostly buffers and the analysis' working set besides the Profile.
// Measured here: what is kept per rank adds ~2 MiB for the 60 (0.2 of the cost); with each rank's Profile kept to
// the end (the release in cli/analyze.cpp taken out) they add ~14 MiB (1.4) and this fails. The bound sits a
// factor 2 or more from each. Wall time is not asserted (machines are shared): bench/ranks_scale.py prints it.
TEST(CrossRank, PeakMemoryDoesNotGrowWithTheRanks) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan keeps freed blocks in quarantine: a released Profile still counts";
#endif
  std::map<int, long> peak;
  for (int n : {1, 4, 64}) {
    std::vector<std::string> args = tp2_bases();
    args.insert(args.end(), {"--ranks", std::to_string(n), "--offset-spread-us", "3000"});
    if (n > 1) args.insert(args.end(), {"--straggler", "1", "--delay-us", "250"});
    Truth truth;
    peak[n] = peak_rss_kib_on_one_cpu({"analyze", make_rank_set(args, truth)});
  }
  long idle = peak_rss_kib_on_one_cpu({"--version"});
  // A forked child's peak starts at the pages of this process the fork copied (Linux carries the high-water mark
  // over exec): what a child that exits at once measures. Below idle, it is not what was measured.
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  int status = 0;
  rusage forked{};
  ASSERT_EQ(wait4(pid, &status, 0, &forked), pid);
  // Run inside a larger test process (a filter of many tests in one process: ctest runs each alone), the inherited
  // mark can hide the children's own peaks, this one's or an earlier one's.
  if (forked.ru_maxrss >= idle || peak[1] <= idle)
    GTEST_SKIP() << "this process (" << forked.ru_maxrss << " KiB) hides the children's peaks (1 rank " << peak[1]
                 << " KiB, --version " << idle << " KiB)";
  long one_rank = peak[1] - idle;
  EXPECT_LT(peak[64] - peak[4], one_rank / 2) << "peak RSS KiB: 1 rank " << peak[1] << ", 4 ranks " << peak[4]
                                              << ", 64 ranks " << peak[64] << "; one rank's own cost " << one_rank;
}

// Each node reduces its own ranks to a summary (analyze --summary); analyze of the summaries gives the same
// cross-rank answer as analyze of all the traces.
TEST(CrossRank, SummariesGiveTheSameAnswerAsTheTraces) {
  Truth truth;
  std::string dir =
      make_tp2_rank_set({"--ranks", "8", "--straggler", "6", "--delay-us", "400", "--offset-spread-us", "3000"}, truth);
  auto whole = test::run_cuprobe({"analyze", "--json", dir});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::string out = test::temp_dir();
  std::vector<std::string> summaries;
  for (int node = 0; node < 2; ++node) {  // "node" n holds ranks 4n..4n+3
    std::vector<std::string> cmd{"analyze", "--summary", out + "/node" + std::to_string(node) + ".json"};
    for (int r = 4 * node; r < 4 * node + 4; ++r) cmd.push_back(dir + "/rank" + std::to_string(r) + ".json.gz");
    auto run = test::run_cuprobe(cmd);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    summaries.push_back(cmd[2]);
  }
  auto merged = test::run_cuprobe({"analyze", "--json", summaries[1], summaries[0]});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  auto a = nlohmann::json::parse(whole.out)["cross_rank"];
  auto b = nlohmann::json::parse(merged.out)["cross_rank"];
  for (auto* j : {&a, &b}) {
    for (auto& r : (*j)["ranks"]) r.erase("file");  // the paths given differ
  }
  EXPECT_EQ(a, b);
  EXPECT_EQ(b["straggler"]["rank"], 6);
  auto text = test::run_cuprobe({"analyze", summaries[0], summaries[1]});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("straggler_rank"), std::string::npos) << text.out;
  // A summary is small: a few KB per rank here (the traces are 60-80 KB compressed).
  EXPECT_LT(test::slurp(summaries[0]).size(), 4u * 40000u);
  auto mixed = test::run_cuprobe({"analyze", summaries[0], dir + "/rank0.json.gz"});
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_NE(mixed.err.find("not both"), std::string::npos) << mixed.err;
}

// The cross_rank of `analyze --json ARGS`, its ranks' file paths and what only a torch trace can say (the NCCL
// kernels' process group, so the matching) left out.
nlohmann::json cross_rank_of(const std::vector<std::string>& args) {
  std::vector<std::string> cmd{"analyze", "--json"};
  cmd.insert(cmd.end(), args.begin(), args.end());
  auto run = test::run_cuprobe(cmd);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out)["cross_rank"];
  for (auto& r : j["ranks"]) r.erase("file");
  for (auto& c : j["calls"]) c.erase("communicator");
  j.erase("matching");
  return j;
}

// Issue 37 item 5: the real tp2 pair as Nsight Systems exports (tests/data/kineto_to_nsys.py: the same GPU work,
// runtime calls and step ranges as NVTX), once as one export of both processes and once as one export per rank, the
// second rank's session 7 s apart: the same cross-rank table as the Kineto traces (matched by stream order: nsys does
// not carry torch's process group), the 7 s found as rank 1's clock offset.
TEST(CrossRank, NsysExportsOfSeveralRanksGiveTheSameTable) {
  std::string rank0 = data_path("tp2_mlp_decode_rank0.json.gz"), rank1 = data_path("tp2_mlp_decode_rank1.json.gz");
  std::string dir = test::temp_dir(), script = data_path("kineto_to_nsys.py");
  auto convert = [&](std::vector<std::string> args) {
    auto r = test::run_program("/usr/bin/python3", args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  };
  convert({script, "--out", dir + "/both.sqlite", rank0, rank1});
  convert({script, "--out", dir + "/node0.sqlite", rank0});
  convert({script, "--out", dir + "/node1.sqlite", "--offset-ns", "-7000000000", rank1});
  nlohmann::json kineto = cross_rank_of({rank0, rank1});
  ASSERT_EQ(kineto["calls"].size(), 64u);
  EXPECT_EQ(cross_rank_of({dir + "/both.sqlite"}), kineto);
  nlohmann::json per_rank = cross_rank_of({dir + "/node0.sqlite", dir + "/node1.sqlite"});
  EXPECT_NEAR(per_rank["ranks"][1]["clock_offset_ms"].get<double>(), -7000.0, 0.01);
  per_rank["ranks"][1]["clock_offset_ms"] = kineto["ranks"][1]["clock_offset_ms"];
  EXPECT_EQ(per_rank, kineto);
  auto text = test::run_cuprobe({"analyze", dir + "/both.sqlite"});
  EXPECT_NE(text.out.find("matched by kernel name and communication stream order"), std::string::npos) << text.out;
}

// export --chrome of ranks with planted offsets: the merged timeline has the collectives' ends together again.
TEST(CrossRank, MergedExportIsAligned) {
  Truth truth;
  auto args = tp2_bases();
  for (const char* a : {"--ranks", "4", "--offsets-us", "0,3000,-2500,700"}) args.emplace_back(a);
  std::string dir = make_rank_set(args, truth);
  std::string out = test::temp_dir() + "/merged.json";
  auto r = test::run_cuprobe({"export", "--chrome", dir, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(test::slurp(out));
  std::map<int, std::vector<double>> ends;  // pid -> collective ends, in order
  for (const auto& e : j["traceEvents"]) {
    if (e.value("cat", "") != "kernel") continue;
    std::string name = e["name"];
    if (name.find("ncclDevKernel") == std::string::npos) continue;
    ends[e["pid"].get<int>()].push_back(e["ts"].get<double>() + e["dur"].get<double>());
  }
  ASSERT_EQ(ends.size(), 4u);
  for (auto& [pid, v] : ends) std::sort(v.begin(), v.end());
  for (const auto& [pid, v] : ends) {
    ASSERT_EQ(v.size(), ends[1].size());
    for (std::size_t k = 0; k < v.size(); ++k) EXPECT_NEAR(v[k], ends[1][k], 50.0) << "pid " << pid << " call " << k;
  }
  EXPECT_NEAR(j["otherData"]["ranks"][1]["clock_offset_ns"].get<double>() / 1e3, truth.offsets_us[1], 50.0);
}

}  // namespace
}  // namespace cuprobe
