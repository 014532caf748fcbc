// Per-GPU, per-metric statistics (mean, p50, p95, max, sample count) over the
// CounterRows of a sampling window. Rendered by report/counter_summary_report.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "collect/counters/device_sampler.h"

namespace cuprobe {

struct MetricSummary {
  std::string metric;
  std::int64_t samples = 0;                    // rows where the value was read (NaN rows are not counted)
  double mean = 0, p50 = 0, p95 = 0, max = 0;  // NaN when samples == 0
};

struct GpuCounterSummary {
  int gpu = -1;
  std::int64_t rows = 0;
  std::int64_t first_ns = 0, last_ns = 0;  // start of the first row, end of the last one
  std::vector<MetricSummary> metrics;      // same order as metric_names
};

struct CounterSummary {
  std::vector<std::string> metric_names;
  std::vector<GpuCounterSummary> gpus;  // ascending GPU index
  std::int64_t lost_samples = 0;
};

// Rows whose values.size() differs from metric_names.size() are ignored.
CounterSummary summarize_counters(const std::vector<std::string>& metric_names, const std::vector<CounterRow>& rows,
                                  std::int64_t lost_samples = 0);

// Streaming percentiles in bounded memory: exact up to kExactLimit values, then a
// log-spaced histogram (bins 1% apart, so p50/p95 are within ~0.5% of the exact value).
// Mean, max and count stay exact.
class QuantileSketch {
 public:
  static constexpr std::size_t kExactLimit = 4096;
  void add(double v);
  std::int64_t count() const { return count_; }
  double mean() const;
  double max() const;
  double quantile(double p) const;  // common/percentile.h's definition; NaN when empty

 private:
  void to_histogram();
  void count_in_bin(double v);
  static int bin_of(double v);
  static double value_of(int bin);
  double value_at(std::size_t rank) const;  // histogram: the value at 0-based rank
  std::int64_t count_ = 0;
  double sum_ = 0, max_ = 0;
  std::vector<double> exact_;
  bool histogram_ = false;
  std::vector<std::pair<int, std::int64_t>> bins_;  // sorted by bin
};

// Incremental form, for long runs: memory stays bounded however many rows arrive.
class CounterSummarizer {
 public:
  explicit CounterSummarizer(std::vector<std::string> metric_names);
  void add(const CounterRow& row);
  void add(const std::vector<CounterRow>& rows);
  CounterSummary summary(std::int64_t lost_samples = 0) const;

 private:
  struct PerGpu {
    int gpu = -1;
    std::int64_t rows = 0, first_ns = 0, last_ns = 0;
    std::vector<QuantileSketch> values;  // per metric
  };
  std::vector<std::string> names_;
  std::vector<PerGpu> gpus_;
};

}  // namespace cuprobe
