#include "collect/counters/counter_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/percentile.h"
#include "common/units.h"

namespace cuprobe {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr double kBinRatio = 1.01;
constexpr int kZeroBin = 0;  // |v| < kTiny
constexpr double kTiny = 1e-9;

}  // namespace

int QuantileSketch::bin_of(double v) {
  if (std::fabs(v) < kTiny) return kZeroBin;
  // Bins 1..N for positive values, -1..-N for negative ones, ordered like the values.
  int k = 1 + static_cast<int>(std::floor(std::log(std::fabs(v) / kTiny) / std::log(kBinRatio)));
  return v > 0 ? k : -k;
}

double QuantileSketch::value_of(int bin) {
  if (bin == kZeroBin) return 0;
  int k = bin > 0 ? bin : -bin;
  // Geometric middle of the bin [kTiny*r^(k-1), kTiny*r^k).
  double v = kTiny * std::pow(kBinRatio, static_cast<double>(k) - 0.5);
  return bin > 0 ? v : -v;
}

void QuantileSketch::add(double v) {
  if (!std::isfinite(v)) return;
  max_ = count_ == 0 ? v : std::max(max_, v);
  sum_ += v;
  ++count_;
  if (!histogram_) {
    exact_.push_back(v);
    if (exact_.size() > kExactLimit) to_histogram();
    return;
  }
  count_in_bin(v);
}

void QuantileSketch::count_in_bin(double v) {
  int b = bin_of(v);
  auto it = std::lower_bound(bins_.begin(), bins_.end(), b,
                             [](const std::pair<int, std::int64_t>& e, int key) { return e.first < key; });
  if (it != bins_.end() && it->first == b)
    ++it->second;
  else
    bins_.insert(it, {b, 1});
}

void QuantileSketch::to_histogram() {
  histogram_ = true;
  std::vector<double> values;
  values.swap(exact_);
  for (double v : values) count_in_bin(v);
}

double QuantileSketch::mean() const { return count_ ? sum_ / static_cast<double>(count_) : kNaN; }
double QuantileSketch::max() const { return count_ ? max_ : kNaN; }

double QuantileSketch::quantile(double p) const {
  if (count_ == 0) return kNaN;
  if (!histogram_) return percentile(exact_, p);
  PercentileRank r = percentile_rank(p, static_cast<std::size_t>(count_));
  return interpolate(r, value_at(r.lo), value_at(r.hi));
}

double QuantileSketch::value_at(std::size_t rank) const {
  std::size_t seen = 0;
  for (const auto& [bin, n] : bins_) {
    seen += static_cast<std::size_t>(n);
    if (seen > rank) return std::min(value_of(bin), max_);
  }
  return max_;
}

CounterSummarizer::CounterSummarizer(std::vector<std::string> metric_names) : names_(std::move(metric_names)) {}

void CounterSummarizer::add(const CounterRow& row) {
  if (row.values.size() != names_.size()) return;
  auto it = std::find_if(gpus_.begin(), gpus_.end(), [&](const PerGpu& g) { return g.gpu == row.gpu; });
  if (it == gpus_.end()) {
    PerGpu g;
    g.gpu = row.gpu;
    g.values.resize(names_.size());
    g.first_ns = row.start_ns;
    g.last_ns = row.end_ns;
    gpus_.push_back(std::move(g));
    it = gpus_.end() - 1;
  }
  ++it->rows;
  it->first_ns = std::min(it->first_ns, row.start_ns);
  it->last_ns = std::max(it->last_ns, row.end_ns);
  for (std::size_t i = 0; i < names_.size(); ++i) it->values[i].add(row.values[i]);
}

void CounterSummarizer::add(const std::vector<CounterRow>& rows) {
  for (const auto& r : rows) add(r);
}

CounterSummary CounterSummarizer::summary(std::int64_t lost_samples) const {
  CounterSummary s;
  s.metric_names = names_;
  s.lost_samples = lost_samples;
  for (const auto& g : gpus_) {
    GpuCounterSummary out;
    out.gpu = g.gpu;
    out.rows = g.rows;
    out.first_ns = g.first_ns;
    out.last_ns = g.last_ns;
    for (std::size_t i = 0; i < names_.size(); ++i) {
      MetricSummary m;
      m.metric = names_[i];
      const QuantileSketch& q = g.values[i];
      m.samples = q.count();
      m.mean = q.mean();
      m.p50 = q.quantile(50);
      m.p95 = q.quantile(95);
      m.max = q.max();
      out.metrics.push_back(std::move(m));
    }
    s.gpus.push_back(std::move(out));
  }
  std::sort(s.gpus.begin(), s.gpus.end(), [](const auto& a, const auto& b) { return a.gpu < b.gpu; });
  return s;
}

CounterSummary summarize_counters(const std::vector<std::string>& metric_names, const std::vector<CounterRow>& rows,
                                  std::int64_t lost_samples) {
  CounterSummarizer summarizer(metric_names);
  summarizer.add(rows);
  return summarizer.summary(lost_samples);
}

}  // namespace cuprobe
