#include "load/arrivals.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace cuprobe {
namespace {

std::vector<double> gaps_s(ArrivalPlan plan, std::size_t n) {
  ArrivalSchedule s(plan);
  std::vector<double> gaps;
  std::int64_t last = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t t = s.next_offset_ns();
    EXPECT_GE(t, last);
    gaps.push_back((t - last) / 1e9);
    last = t;
  }
  return gaps;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double cv(const std::vector<double>& v) {
  double m = mean(v), s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size())) / m;
}

TEST(Arrivals, SameSeedSameTimesOtherSeedOtherTimes) {
  ArrivalPlan plan;
  plan.rate = 10;
  plan.burstiness = 0.5;
  plan.seed = 7;
  EXPECT_EQ(gaps_s(plan, 200), gaps_s(plan, 200));
  ArrivalPlan other = plan;
  other.seed = 8;
  EXPECT_NE(gaps_s(plan, 200), gaps_s(other, 200));
  // The stream is cuprobe's own, so the first time is fixed on every host.
  ArrivalSchedule a(plan), b(plan);
  EXPECT_EQ(a.next_offset_ns(), b.next_offset_ns());
}

TEST(Arrivals, MeanGapIsOneOverRateForEveryBurstiness) {
  for (double shape : {0.25, 1.0, 4.0}) {
    ArrivalPlan plan;
    plan.rate = 50;
    plan.burstiness = shape;
    plan.seed = 3;
    std::vector<double> g = gaps_s(plan, 40000);
    EXPECT_NEAR(mean(g), 1.0 / 50, 0.03 / 50) << "shape " << shape;
  }
}

TEST(Arrivals, BurstinessIsTheGammaShape) {
  // Gamma(k): coefficient of variation 1/sqrt(k). k = 1 is Poisson (CV 1).
  for (double shape : {0.25, 1.0, 4.0}) {
    ArrivalPlan plan;
    plan.rate = 20;
    plan.burstiness = shape;
    plan.seed = 11;
    EXPECT_NEAR(cv(gaps_s(plan, 40000)), 1 / std::sqrt(shape), 0.05 / std::sqrt(shape)) << "shape " << shape;
  }
}

TEST(Arrivals, ConstantArrivalsAreEvenlySpaced) {
  ArrivalPlan plan;
  plan.rate = 4;
  plan.burstiness = kConstantArrivals;
  for (double g : gaps_s(plan, 10)) EXPECT_NEAR(g, 0.25, 1e-9);
}

TEST(Arrivals, KnownCountIsRescaledToCountOverRateAsVllm) {
  ArrivalPlan plan;
  plan.rate = 8;
  plan.total = 100;
  plan.seed = 5;
  ArrivalSchedule s(plan);
  std::int64_t last = 0;
  for (int i = 0; i < 100; ++i) last = s.next_offset_ns();
  EXPECT_EQ(last, 12'500'000'000);  // 100 / 8 s
  // Past the plan (a timed warm-up): more arrivals, later ones.
  EXPECT_GT(s.next_offset_ns(), last);
}

TEST(Arrivals, RampsFollowVllmsRateFormula) {
  ArrivalPlan plan;
  plan.ramp = RampUp::kLinear;
  plan.ramp_start_rps = 2;
  plan.ramp_end_rps = 10;
  plan.total = 5;
  EXPECT_DOUBLE_EQ(ramped_rate(plan, 0), 2);
  EXPECT_DOUBLE_EQ(ramped_rate(plan, 2), 6);
  EXPECT_DOUBLE_EQ(ramped_rate(plan, 4), 10);
  plan.ramp = RampUp::kExponential;
  EXPECT_DOUBLE_EQ(ramped_rate(plan, 0), 2);
  EXPECT_NEAR(ramped_rate(plan, 2), std::sqrt(20.0), 1e-12);
  EXPECT_NEAR(ramped_rate(plan, 4), 10, 1e-12);
  // Constant gaps make the ramp visible: 1/2 s first, 1/10 s last.
  plan.ramp = RampUp::kLinear;
  plan.burstiness = kConstantArrivals;
  std::vector<double> g = gaps_s(plan, 5);
  EXPECT_NEAR(g.front(), 0.5, 1e-9);
  EXPECT_NEAR(g.back(), 0.1, 1e-9);
}

TEST(Arrivals, BadPlansAreRefusedWithAReason) {
  ArrivalPlan plan;
  EXPECT_NE(check_arrival_plan(plan), "");  // no rate
  plan.rate = 1;
  EXPECT_EQ(check_arrival_plan(plan), "");
  plan.burstiness = 0;
  EXPECT_NE(check_arrival_plan(plan), "");
  plan.burstiness = 1;
  plan.ramp = RampUp::kExponential;
  plan.ramp_start_rps = 0;
  plan.ramp_end_rps = 4;
  plan.total = 10;
  EXPECT_NE(check_arrival_plan(plan), "");  // vLLM asserts a positive rate for every request
  plan.ramp_start_rps = 5;
  EXPECT_NE(check_arrival_plan(plan), "");  // start above end
  plan.ramp_start_rps = 1;
  EXPECT_EQ(check_arrival_plan(plan), "");
  plan.total = 0;
  EXPECT_NE(check_arrival_plan(plan), "");  // a ramp spans a known count
  RampUp r;
  EXPECT_TRUE(parse_ramp_up("linear", r));
  EXPECT_FALSE(parse_ramp_up("step", r));
}

// Issue 39: --rate 1e-300 planned arrivals past any clock (a signed overflow); now refused, and an offset is
// never beyond 31 years.
TEST(Arrivals, TinyRatesAreRefusedAndOffsetsBounded) {
  ArrivalPlan plan;
  plan.rate = 1e-300;
  EXPECT_EQ(check_arrival_plan(plan), "the request rate must be at least 1e-06 requests/s (one in 11.6 days)");
  plan.rate = 1e-6;
  EXPECT_EQ(check_arrival_plan(plan), "");
  plan.rate = 1e-300;
  plan.burstiness = kConstantArrivals;
  plan.total = 2;
  ArrivalSchedule s(plan);
  EXPECT_EQ(s.next_offset_ns(), 1'000'000'000'000'000'000);
}

}  // namespace
}  // namespace cuprobe
