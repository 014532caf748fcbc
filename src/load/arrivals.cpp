#include "load/arrivals.h"

#include <algorithm>
#include <cmath>

namespace cuprobe {

ArrivalRandom::ArrivalRandom(std::uint64_t seed) : state_(seed) {}

// splitmix64: small, fast, and fully specified.
std::uint64_t ArrivalRandom::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double ArrivalRandom::uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }

double ArrivalRandom::normal() {
  // Box-Muller, one value per call (the second is dropped: simpler, still exact in law).
  double u1 = uniform(), u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

// Marsaglia & Tsang (2000); shapes below 1 by the boost gamma(k) = gamma(k+1) * U^(1/k).
double ArrivalRandom::gamma(double shape, double scale) {
  if (shape < 1.0) return gamma(shape + 1.0, scale) * std::pow(uniform(), 1.0 / shape);
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = normal();
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    double u = uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v * scale;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v * scale;
  }
}

constexpr double kMinRequestRate = 1e-6;  // --rate 1e-300 planned arrivals past any clock

double ramped_rate(const ArrivalPlan& plan, std::uint64_t index) {
  if (plan.ramp == RampUp::kNone) return plan.rate;
  double progress = static_cast<double>(index) / static_cast<double>(std::max<std::uint64_t>(plan.total, 2) - 1);
  if (plan.ramp == RampUp::kLinear) return plan.ramp_start_rps + (plan.ramp_end_rps - plan.ramp_start_rps) * progress;
  return plan.ramp_start_rps * std::pow(plan.ramp_end_rps / plan.ramp_start_rps, progress);
}

double ArrivalSchedule::gap_s(std::uint64_t index) {
  double rate = ramped_rate(plan_, index);
  if (std::isinf(plan_.burstiness)) return 1.0 / rate;
  return random_.gamma(plan_.burstiness, 1.0 / (rate * plan_.burstiness));
}

ArrivalSchedule::ArrivalSchedule(const ArrivalPlan& plan) : plan_(plan), random_(plan.seed) {
  if (plan_.total == 0) return;
  planned_s_.reserve(plan_.total);
  double t = 0;
  for (std::uint64_t i = 0; i < plan_.total; ++i) {
    t += gap_s(i);
    planned_s_.push_back(t);
  }
  if (plan_.ramp == RampUp::kNone && planned_s_.back() > 0) {
    const double factor = static_cast<double>(plan_.total) / plan_.rate / planned_s_.back();
    for (double& x : planned_s_) x *= factor;
  }
}

std::int64_t ArrivalSchedule::next_offset_ns() {
  double t;
  if (index_ < planned_s_.size()) {
    t = planned_s_[index_];
  } else {
    // Past a known plan (warm-up by time, or a duration): keep drawing at the last rate.
    cumulative_s_ = std::max(cumulative_s_, planned_s_.empty() ? 0.0 : planned_s_.back());
    cumulative_s_ += gap_s(plan_.total == 0 ? index_ : plan_.total - 1);
    t = cumulative_s_;
  }
  ++index_;
  return static_cast<std::int64_t>(std::llround(std::min(t, 1e9) * 1e9));  // 31 years at most: no clock overflow
}

std::string check_arrival_plan(const ArrivalPlan& plan) {
  if (!(plan.burstiness > 0)) return "--burstiness must be positive";
  if (plan.ramp == RampUp::kNone) {
    if (!(plan.rate > 0)) return "the request rate must be positive";
    return plan.rate < kMinRequestRate ? "the request rate must be at least 1e-06 requests/s (one in 11.6 days)" : "";
  }
  if (plan.total == 0)
    return "--ramp-up spans the planned requests: it needs -n, without --duration or a timed --warmup";
  // vLLM asserts a positive rate for every request: a ramp from 0 cannot send its first one.
  if (plan.ramp_start_rps <= 0 || plan.ramp_end_rps <= 0) return "--ramp-up rates must be positive";
  if (plan.ramp_start_rps < kMinRequestRate) return "--ramp-up rates must be at least 1e-06 requests/s";
  if (plan.ramp_start_rps > plan.ramp_end_rps) return "--ramp-up-start-rps must not exceed --ramp-up-end-rps";
  return "";
}

bool parse_ramp_up(const std::string& text, RampUp& out) {
  if (text == "linear") {
    out = RampUp::kLinear;
  } else if (text == "exponential") {
    out = RampUp::kExponential;
  } else {
    return false;
  }
  return true;
}

}  // namespace cuprobe
