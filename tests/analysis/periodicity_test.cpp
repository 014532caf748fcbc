#include "analysis/periodicity.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace cuprobe {
namespace {

// A step: embed, 4 layers of (norm, gemm, attn, gemm), head, sample.
std::vector<StringId> step_names() {
  std::vector<StringId> s{1};
  for (int l = 0; l < 4; ++l) s.insert(s.end(), {2, 3, 4, 3});
  s.insert(s.end(), {5, 6});
  return s;
}

TEST(Periodicity, FindsTheStepNotTheLayer) {
  std::vector<StringId> names;
  std::vector<double> score;
  for (int step = 0; step < 10; ++step) {
    auto s = step_names();
    for (std::size_t i = 0; i < s.size(); ++i) {
      names.push_back(s[i]);
      score.push_back(i == 0 ? 50'000.0 : 1'000.0 + (i % 3));  // long host gap before each step
    }
  }
  PeriodicSteps r = find_periodic_steps(names, score);
  EXPECT_EQ(r.period, 19);
  ASSERT_EQ(r.starts.size(), 10u);
  for (std::size_t k = 0; k < r.starts.size(); ++k) EXPECT_EQ(r.starts[k], k * 19);
}

TEST(Periodicity, AFirstStepOfAnotherLengthStaysAligned) {
  std::vector<StringId> names{7, 7, 8};  // a prefill with different kernels and length 3+19
  std::vector<double> score{0, 10, 10};
  for (int step = 0; step < 8; ++step) {
    auto s = step_names();
    for (std::size_t i = 0; i < s.size(); ++i) {
      names.push_back(s[i]);
      score.push_back(i == 0 ? 90'000.0 : 500.0);
    }
  }
  PeriodicSteps r = find_periodic_steps(names, score);
  EXPECT_EQ(r.period, 19);
  ASSERT_GE(r.starts.size(), 8u);
  EXPECT_EQ(r.starts.back(), 3u + 7 * 19);
}

// 80 layers of 10 kernels and one lm_head per step: the layer lag matches 98.6%,
// within the tie tolerance of the step's 100%, yet it is not the step.
TEST(Periodicity, ManyLayersDoNotHideTheStep) {
  std::vector<StringId> step{100};
  for (int l = 0; l < 80; ++l) {
    for (StringId k = 1; k <= 10; ++k) step.push_back(k);
  }
  std::vector<StringId> names;
  std::vector<double> score;
  for (int s = 0; s < 6; ++s) {
    for (std::size_t i = 0; i < step.size(); ++i) {
      names.push_back(step[i]);
      score.push_back(i == 0 ? 80'000.0 : 1'000.0);
    }
  }
  PeriodicSteps r = find_periodic_steps(names, score);
  EXPECT_EQ(r.period, 801);
  ASSERT_EQ(r.starts.size(), 6u);
  EXPECT_EQ(r.starts[1], 801u);
}

// issue 25: a process calling generate 4 times (a prefill of its own kernels, then 16 decode steps, each read back
// to the host). The whole call repeats exactly (350 kernels) where the decode step (20) mismatches around each
// prefill; the read-backs recurring every 20 kernels say which one is the step, and each prefill is a step apart.
TEST(Periodicity, SeveralGenerateCallsGiveTheirDecodeStepsNotTheCall) {
  std::vector<StringId> names;
  std::vector<double> score;
  std::vector<bool> read_back;
  std::vector<std::size_t> expected;
  for (int call = 0; call < 4; ++call) {
    for (int step = -1; step < 16; ++step) {
      expected.push_back(names.size());
      std::size_t length = step < 0 ? 30 : 20;  // the prefill: 30 kernels of other names
      for (std::size_t i = 0; i < length; ++i) {
        names.push_back(static_cast<StringId>(step < 0 ? 50 + i : 1 + i));
        bool first = i == 0 && !names.empty() && names.size() > 1;
        read_back.push_back(first);
        score.push_back(first ? 1e15 : 1'000.0 + static_cast<double>(i % 5));
      }
    }
  }
  PeriodicSteps without = find_periodic_steps(names, score);
  EXPECT_EQ(without.period, 350);  // the call, as before
  PeriodicSteps r = find_periodic_steps(names, score, read_back);
  EXPECT_EQ(r.period, 20);
  EXPECT_TRUE(r.by_read_back);
  EXPECT_EQ(r.starts, expected);
  EXPECT_EQ(r.starts.size(), 4u * 17);
}

// issue 34: a read-back inside every layer (`.item()` of an overflow guard), 8 layers of 12 kernels and one kernel of
// a layer's names once per step, a run file (no synchronize calls). The read-backs recur every 12 kernels; the
// host's gap after them is ~25 us inside the step, ~70 us at its end (the loop's synchronize and its own work). The
// step is the 97-kernel iteration, from those gaps, not the layer.
TEST(Periodicity, ReadBacksInEveryLayerKeepTheIterationAsTheStep) {
  std::vector<StringId> names;
  std::vector<double> score;
  std::vector<bool> read_back;
  std::vector<std::size_t> expected;
  for (int step = 0; step < 14; ++step) {
    expected.push_back(names.size());
    for (int layer = 0; layer < 8; ++layer) {
      for (std::size_t i = 0; i < (layer == 0 ? 13u : 12u); ++i) {
        bool first = i == 0 && !names.empty();
        // The step's own kernel first: a fill, named as a layer's elementwise kernels.
        names.push_back(static_cast<StringId>(layer == 0 ? (i == 0 ? 5 : i) : 1 + i));
        read_back.push_back(first && !(layer == 0 && i == 0 && step == 0));
        double gap = layer == 0 && i == 0 ? 70'000.0 + 500.0 * (step % 3) : 1'000.0 + static_cast<double>(i % 5);
        if (layer > 0 && i == 0) gap = 25'000.0 + 300.0 * (layer % 4);
        score.push_back(read_back.back() ? kReadBackScore + gap : gap);
      }
    }
  }
  PeriodicSteps r = find_periodic_steps(names, score, read_back);
  EXPECT_EQ(r.period, 97);
  EXPECT_FALSE(r.by_read_back);
  EXPECT_TRUE(r.read_backs_inside);
  EXPECT_EQ(r.starts, expected);
}

// Read-backs once per step do not turn a layer into a step.
TEST(Periodicity, AReadBackPerStepKeepsTheStepAboveItsLayers) {
  std::vector<StringId> names;
  std::vector<double> score;
  std::vector<bool> read_back;
  for (int step = 0; step < 10; ++step) {
    auto s = step_names();
    for (std::size_t i = 0; i < s.size(); ++i) {
      names.push_back(s[i]);
      read_back.push_back(i == 0 && step > 0);
      score.push_back(i == 0 ? 1e15 : 1'000.0);
    }
  }
  PeriodicSteps r = find_periodic_steps(names, score, read_back);
  EXPECT_EQ(r.period, 19);
  ASSERT_EQ(r.starts.size(), 10u);
  EXPECT_EQ(r.starts[3], 3u * 19);
}

// issue 34: programs that synchronize each step but read nothing back, recorded by `cuprobe record`: N alike
// layers of K kernels (plus `extra` kernels once per step), the host's synchronize leaving a GPU idle gap before
// each step, warm-up kernels of other names first, and noise in the gaps inside a step.
struct Synchronized {
  std::vector<StringId> names;
  std::vector<double> score;
  std::vector<std::size_t> starts;  // each step's first kernel
};

Synchronized synchronized_program(int layers, int kernels, int extra, int steps, double inside, double jitter,
                                  double sync_gap, int missing_every = 0) {
  Synchronized p;
  std::uint32_t seed = 12345;
  auto noise = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<double>(seed >> 8) / static_cast<double>(1u << 24);  // [0, 1)
  };
  for (StringId w = 200; w < 207; ++w) {  // warm-up: initialisation kernels, long gaps
    p.names.push_back(w);
    p.score.push_back(p.score.empty() ? 0.0 : 5e6);
  }
  for (int s = 0; s < steps; ++s) {
    p.starts.push_back(p.names.size());
    bool gap = missing_every == 0 || s % missing_every != missing_every - 1;
    for (int l = 0; l < layers; ++l) {
      for (int k = 0; k < kernels; ++k) {
        p.names.push_back(static_cast<StringId>(1 + k));
        bool first = l == 0 && k == 0;
        p.score.push_back(first && gap ? sync_gap + jitter * noise() : inside + jitter * noise());
      }
    }
    for (int e = 0; e < extra; ++e) {
      p.names.push_back(static_cast<StringId>(100 + e));
      p.score.push_back(inside + jitter * noise());
    }
  }
  return p;
}

void expect_steps(const Synchronized& p, std::size_t period, bool by_boundaries = true) {
  PeriodicSteps r = find_periodic_steps(p.names, p.score);
  EXPECT_EQ(r.period, static_cast<std::int64_t>(period));
  EXPECT_EQ(r.by_boundaries, by_boundaries);
  ASSERT_EQ(r.starts.size(), p.starts.size());
  // Every true step start after the first is a step start found; the first step begins at or before its first
  // kernel (the warm-up's long gaps may begin it, or leave some warm-up kernels out of every step).
  EXPECT_LE(r.starts.front(), p.starts.front());
  for (std::size_t k = 1; k < p.starts.size(); ++k) EXPECT_EQ(r.starts[k], p.starts[k]) << k;
}

TEST(Periodicity, AlikeLayersAndASynchronizeGiveTheStepNotTheLayer) {
  // GPU-bound: kernels queued back to back inside the step, 25 us at each synchronize.
  expect_steps(synchronized_program(16, 1, 0, 20, 1'500, 1'000, 25'000), 16);
  expect_steps(synchronized_program(8, 6, 0, 20, 1'500, 1'000, 25'000), 48);
  // Embedding, norm and head once per step: the names alone give the step.
  expect_steps(synchronized_program(12, 7, 3, 15, 1'500, 1'000, 25'000), 87, false);
}

TEST(Periodicity, HostBoundStepsAreFoundByTheirLongerGap) {
  // Launch-bound: every kernel waits for the host (6..12 us), the synchronize and the loop add 20 us more.
  expect_steps(synchronized_program(8, 5, 0, 25, 6'000, 6'000, 32'000), 40);
}

TEST(Periodicity, ASynchronizeMissingNowAndThenStillGivesTheStep) {
  expect_steps(synchronized_program(10, 4, 0, 30, 1'500, 1'000, 25'000, 7), 40);
}

TEST(Periodicity, LayersWithoutAHostGapBetweenStepsStayTheirOwnPeriod) {
  // No gap marks a step: nothing says where one ends, so the names' period stands.
  Synchronized p = synchronized_program(8, 6, 0, 20, 1'500, 1'000, 1'500);
  PeriodicSteps r = find_periodic_steps(p.names, p.score);
  EXPECT_EQ(r.period, 6);
  EXPECT_FALSE(r.by_boundaries);
}

TEST(Periodicity, NoRepetitionNoSteps) {
  std::vector<StringId> names;
  std::vector<double> score;
  for (StringId i = 1; i < 200; ++i) {
    names.push_back(i);
    score.push_back(1);
  }
  EXPECT_EQ(find_periodic_steps(names, score).period, 0);
  EXPECT_EQ(find_periodic_steps({1, 2, 1, 2}, {0, 0, 0, 0}).period, 0);  // too short to tell
}

}  // namespace
}  // namespace cuprobe
