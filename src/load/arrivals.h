// Open-loop arrival times, as vLLM's `vllm bench serve` draws them (get_request
// in vllm/benchmarks/serve.py): inter-arrival gaps from a gamma distribution
// with shape = burstiness and mean 1/rate (burstiness 1 = Poisson, infinite =
// constant gaps), the rate optionally ramped linearly or exponentially from a
// start to an end rate over the planned requests. With a known request count
// and no ramp, the cumulative times are rescaled so the last one falls at
// count/rate, as vLLM does. The random stream is cuprobe's own (portable, seeded):
// the same seed gives the same times on every host, not numpy's numbers.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace cuprobe {

enum class RampUp { kNone, kLinear, kExponential };

struct ArrivalPlan {
  double rate = 0;          // requests/s (ignored with a ramp)
  double burstiness = 1.0;  // gamma shape; infinity = constant gaps
  RampUp ramp = RampUp::kNone;
  double ramp_start_rps = 0, ramp_end_rps = 0;
  std::uint64_t total = 0;  // requests planned; 0 = unknown (run by duration)
  std::uint64_t seed = 1;
};

// A seeded uniform/normal/gamma source that gives the same numbers with every
// standard library (std:: distributions are implementation-defined).
class ArrivalRandom {
 public:
  explicit ArrivalRandom(std::uint64_t seed);
  double uniform();  // (0, 1)
  double normal();   // standard normal
  double gamma(double shape, double scale);

 private:
  std::uint64_t next();
  std::uint64_t state_;
};

// The rate for request `index` of `total` (vLLM's _get_current_request_rate).
double ramped_rate(const ArrivalPlan& plan, std::uint64_t index);

class ArrivalSchedule {
 public:
  explicit ArrivalSchedule(const ArrivalPlan& plan);
  // Offset from the run's start of the next arrival, ns (non-decreasing).
  std::int64_t next_offset_ns();

 private:
  double gap_s(std::uint64_t index);
  ArrivalPlan plan_;
  ArrivalRandom random_;
  std::vector<double> planned_s_;  // precomputed when total is known
  std::uint64_t index_ = 0;
  double cumulative_s_ = 0;
};

// Checks a plan; "" when it can run, else why not (for a usage error).
std::string check_arrival_plan(const ArrivalPlan& plan);

// Parses "linear" / "exponential"; false on anything else.
bool parse_ramp_up(const std::string& text, RampUp& out);

inline constexpr double kConstantArrivals = std::numeric_limits<double>::infinity();

}  // namespace cuprobe
