#include "analysis/periodicity.h"

#include <gtest/gtest.h>

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
