// Collectives matched per communicator (issue 37): a tensor-parallel x data-parallel job of 4 ranks, TP pairs {0,1}
// and {2,3}, DP pairs {0,2} and {1,3}, every all-reduce the same NCCL kernel. Matching by kernel name and stream
// alone pairs rank 0's TP call with rank 2's (another communicator, 0.3-0.45 ms apart); matching by communicator pairs
// each call among its own ranks, and aligns rank 3 (no call shared with rank 0) through ranks 1 and 2.
#include "analysis/clock_alignment.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "analysis/analyze.h"
#include "analysis/breakdown.h"
#include "analysis/collective_calls.h"

namespace cuprobe {
namespace {

constexpr const char* kAllReduce = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
constexpr int kSteps = 20;
constexpr TimeNs kStepNs = 1'000'000;
constexpr TimeNs kUs = 1'000;
// Planted: each rank's clock minus rank 0's.
constexpr std::array<TimeNs, 4> kOffsetNs{0, 3'000'000, -2'000'000, 5'000'000};

struct Call {
  const char* communicator[2];  // per pair: the communicator of ranks {0,1} or {0,2}, then the other pair's
  std::int64_t stream;
  std::array<TimeNs, 4> arrival_us;  // per rank, in the step, on the true clock
  TimeNs end_us[2];                  // per pair: the end, the same instant on both of its ranks
};

// Per step: two TP all-reduces (pair B, ranks 2 and 3, computes longer: its calls come 0.3-0.45 ms after pair A's),
// then one DP all-reduce, which ends at one instant on all four.
const Call kCalls[] = {
    {{"pg 1 (tp) ranks [0, 1]", "pg 2 (tp) ranks [2, 3]"}, 20, {50, 80, 200, 350}, {100, 400}},
    {{"pg 1 (tp) ranks [0, 1]", "pg 2 (tp) ranks [2, 3]"}, 20, {150, 170, 450, 600}, {200, 650}},
    {{"pg 3 (dp) ranks [0, 2]", "pg 4 (dp) ranks [1, 3]"}, 21, {250, 260, 700, 750}, {900, 900}},
};

// Which pair of the call rank r is in: TP pairs by r / 2, DP pairs by r % 2.
int pair_of(const Call& c, int r) { return c.stream == 20 ? r / 2 : r % 2; }

Profile tp_dp_rank(int r, bool name_communicators) {
  Profile p;
  p.file = "rank" + std::to_string(r);
  p.source = "kineto";
  p.rank = r;
  p.world_size = 4;
  StringId gemm = p.strings.intern("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64");
  StringId all_reduce = p.strings.intern(kAllReduce);
  std::int64_t correlation = 1;
  auto add = [&](StringId name, std::int64_t stream, TimeNs start, TimeNs end, StringId communicator) {
    GpuActivity a;
    a.name = name;
    a.start = start + kOffsetNs[static_cast<std::size_t>(r)];
    a.end = end + kOffsetNs[static_cast<std::size_t>(r)];
    a.device = r;
    a.stream = stream;
    a.correlation = correlation++;
    a.communicator = communicator;
    p.gpu.push_back(a);
  };
  for (int s = 0; s < kSteps; ++s) {
    TimeNs t0 = s * kStepNs, free = t0;
    for (const Call& c : kCalls) {
      int pair = pair_of(c, r);
      TimeNs arrival = t0 + c.arrival_us[static_cast<std::size_t>(r)] * kUs;
      add(gemm, 7, free, arrival, kNoString);  // the compute before the arrival
      add(all_reduce, c.stream, arrival, t0 + c.end_us[pair] * kUs,
          name_communicators ? p.strings.intern(c.communicator[pair]) : kNoString);
      free = t0 + c.end_us[pair] * kUs;
    }
  }
  p.sort_by_time();
  return p;
}

std::vector<Profile> tp_dp_job(bool name_communicators) {
  std::vector<Profile> ranks;
  for (int r = 0; r < 4; ++r) ranks.push_back(tp_dp_rank(r, name_communicators));
  return ranks;
}

TEST(CollectiveMatching, TensorAndDataParallelCommunicatorsPairTheirOwnCalls) {
  AnalyzeReport report = analyze_profiles(tp_dp_job(true), {});
  ASSERT_TRUE(report.cross_rank);
  const CrossRank& t = *report.cross_rank;
  EXPECT_EQ(t.matching, "communicator");
  // Per step: 2 TP calls on each of 2 pairs, 1 DP call on each of 2 pairs.
  EXPECT_EQ(t.matched_calls, static_cast<std::size_t>(kSteps * 6));
  ASSERT_EQ(t.calls.size(), t.matched_calls);
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_TRUE(t.ranks[r].clock_aligned) << r;
    EXPECT_NEAR(t.ranks[r].clock_offset_ms * 1e6, static_cast<double>(kOffsetNs[r]), 1.0) << "rank " << r;
    EXPECT_LT(t.ranks[r].clock_residual_us, 0.001) << "rank " << r;
  }
  // Each call among its own pair: the last to arrive is the later of the pair, never a rank of the other pair.
  std::size_t tp_a = 0;
  for (const CollectiveRow& c : t.calls) {
    EXPECT_EQ(c.ranks, 2) << c.communicator;
    std::optional<int> last = t.ranks[c.last].rank;
    if (c.communicator == "pg 1 (tp) ranks [0, 1]") {
      ++tp_a;
      EXPECT_EQ(last, 1);
      EXPECT_LT(c.others_wait_ms, 0.031);  // rank 0 waited 30 or 20 us for rank 1, not for pair B
    } else if (c.communicator == "pg 2 (tp) ranks [2, 3]") {
      EXPECT_EQ(last, 3);
      EXPECT_NEAR(c.saving_ms, 0.150, 1e-6);
    } else if (c.communicator == "pg 3 (dp) ranks [0, 2]") {
      EXPECT_EQ(last, 2);
      EXPECT_NEAR(c.others_wait_ms, 0.450, 1e-6);
    } else {
      EXPECT_EQ(c.communicator, "pg 4 (dp) ranks [1, 3]");
      EXPECT_EQ(last, 3);
    }
  }
  EXPECT_EQ(tp_a, static_cast<std::size_t>(2 * kSteps));
  // Rank 0 waits 30 + 20 us in its TP calls and 450 us in its DP call per step.
  EXPECT_NEAR(t.ranks[0].wait_ms, kSteps * 0.5, 1e-6);
  ASSERT_TRUE(t.straggler);
  EXPECT_EQ(t.straggler->rank, 3);
  // collective_wait pairs calls the same way: rank 0's calls last 30 + 20 us longer than rank 1's (TP) and 450 us
  // longer than rank 2's (DP) per step.
  double excess_ms = -1;
  for (const Finding& f : report.findings) {
    if (f.id != "collective_wait" || f.rank != 0) continue;
    for (const auto& [key, value] : f.numbers) excess_ms = key == "excess_ms" ? value : excess_ms;
  }
  EXPECT_NEAR(excess_ms, kSteps * 0.5, 1e-6);
}

// The same job without communicators in the trace: matching falls back to kernel name and stream order, says so, and
// pairs calls of different communicators (rank 0's TP call with rank 2's), which puts rank 2's clock off by 0.3 ms:
// what the communicator matching above avoids.
TEST(CollectiveMatching, WithoutCommunicatorsStreamOrderPairsOtherCommunicatorsCalls) {
  AnalyzeReport report = analyze_profiles(tp_dp_job(false), {});
  ASSERT_TRUE(report.cross_rank);
  const CrossRank& t = *report.cross_rank;
  EXPECT_EQ(t.matching, "stream order");
  EXPECT_EQ(t.matched_calls, static_cast<std::size_t>(kSteps * 3));
  for (const CollectiveRow& c : t.calls) {
    EXPECT_EQ(c.ranks, 4);
    EXPECT_TRUE(c.communicator.empty());
  }
  EXPECT_GT(std::abs(t.ranks[2].clock_offset_ms * 1e6 - static_cast<double>(kOffsetNs[2])), 250'000.0);
}

// A communicator that only some ranks name (a trace of another torch version among them): stream order for all.
TEST(CollectiveMatching, OneRankWithoutCommunicatorsFallsBack) {
  std::vector<Profile> ranks = tp_dp_job(true);
  ranks[3] = tp_dp_rank(3, false);
  std::vector<RankSummary> summaries(ranks.size());
  std::vector<const RankSummary*> pointers;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    collect_collective_calls(ranks[r], classify_activities(ranks[r]), summaries[r]);
    pointers.push_back(&summaries[r]);
  }
  EXPECT_EQ(collective_matching(pointers), CollectiveMatching::kStreamOrder);
  pointers.pop_back();
  EXPECT_EQ(collective_matching(pointers), CollectiveMatching::kCommunicator);
  // Ranks 0-2 by communicator: rank 2 shares DP calls with rank 0, so all three align exactly.
  ClockAlignment clocks = align_clocks(pointers, match_collectives(pointers));
  for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(clocks.offset_ns[r], kOffsetNs[r]) << r;
}

// A rank no matched call reaches keeps offset 0 and is said to be unaligned.
TEST(CollectiveMatching, RankOutsideEveryMatchedCommunicatorIsUnaligned) {
  std::vector<Profile> ranks = tp_dp_job(true);
  std::vector<RankSummary> summaries(2);
  std::vector<const RankSummary*> pointers;
  for (std::size_t r : {0u, 3u}) {  // ranks 0 and 3 share no communicator
    RankSummary& s = summaries[pointers.size()];
    collect_collective_calls(ranks[r], classify_activities(ranks[r]), s);
    pointers.push_back(&s);
  }
  auto matched = match_collectives(pointers);
  EXPECT_TRUE(matched.empty());
  ClockAlignment clocks = align_clocks(pointers, matched);
  EXPECT_TRUE(clocks.aligned[0]);
  EXPECT_FALSE(clocks.aligned[1]);
  EXPECT_EQ(clocks.offset_ns[1], 0);
}

}  // namespace
}  // namespace cuprobe
