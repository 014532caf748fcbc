#include "analysis/counter_attribution.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "analysis/breakdown.h"
#include "model/time_range.h"

namespace cuprobe {
namespace {

struct Series {  // one metric on one device, sorted by start
  std::vector<const CounterSample*> samples;
  TimeNs longest = 0;
};

struct Accumulator {
  std::int64_t kernels = 0;
  std::int64_t covered_kernels = 0;
  TimeNs busy = 0;
  TimeNs covered = 0;
  std::unordered_set<const CounterSample*> samples;  // distinct samples overlapped (one metric's series)
  std::vector<double> weighted;                      // sum of value * overlap
  std::vector<double> weight;                        // sum of overlap
};

CounterAttributionRow finish_row(std::string key, const Accumulator& acc, std::size_t n_metrics) {
  CounterAttributionRow row;
  row.key = std::move(key);
  row.kernels = acc.kernels;
  row.covered_kernels = acc.covered_kernels;
  row.busy_ns = acc.busy;
  row.covered_ns = acc.covered;
  for (const CounterSample* c : acc.samples) row.sampled_ns = saturating_add(row.sampled_ns, c->end - c->start);
  row.means.assign(n_metrics, std::nan(""));
  for (std::size_t m = 0; m < n_metrics; ++m) {
    if (acc.weight[m] > 0) row.means[m] = acc.weighted[m] / acc.weight[m];
  }
  return row;
}

// Every metric's name, sorted, into `metrics`; the map gives each name's index there.
std::map<std::string, std::size_t> index_metrics(const Profile& p, std::vector<std::string>& metrics) {
  std::map<std::string, std::size_t> metric_index;
  for (const auto& c : p.counters) metric_index.emplace(std::string(p.name_of(c.metric)), 0);
  for (auto& [name, index] : metric_index) {
    index = metrics.size();
    metrics.push_back(name);
  }
  return metric_index;
}

using SeriesMap = std::map<std::pair<std::int32_t, std::size_t>, Series>;  // by (device, metric index)

// The usable samples (a length, a finite value) of each metric on each device, sorted by start.
SeriesMap sorted_series(const Profile& p, std::map<std::string, std::size_t>& metric_index) {
  SeriesMap series;
  for (const auto& c : p.counters) {
    if (c.end <= c.start || !std::isfinite(c.value)) continue;
    auto& s = series[{c.device, metric_index[std::string(p.name_of(c.metric))]}];
    s.samples.push_back(&c);
    s.longest = std::max(s.longest, c.end - c.start);
  }
  for (auto& [key, s] : series) {
    std::sort(s.samples.begin(), s.samples.end(),
              [](const CounterSample* a, const CounterSample* b) { return a->start < b->start; });
  }
  return series;
}

// The overall means and the median sample length. The overall means cover the stretch between the first and
// last GPU activity: the samples before a program reaches its GPU work (imports, loading) would dilute them.
// Without any activity (kernels not traced), they cover every sample.
void add_overall_means(const Profile& p, const SeriesMap& series, std::size_t n, CounterAttribution& out) {
  TimeNs span_start = std::numeric_limits<TimeNs>::min(), span_end = std::numeric_limits<TimeNs>::max();
  if (!p.gpu.empty()) {
    span_start = span_end = p.gpu.front().start;
    for (const auto& a : p.gpu) {
      span_start = std::min(span_start, a.start);
      span_end = std::max(span_end, a.end);
    }
    out.overall_over_kernels = true;
  }
  std::vector<double> overall_weighted(n, 0.0), overall_weight(n, 0.0);
  std::vector<TimeNs> lengths;
  for (const auto& [key, s] : series) {
    for (const CounterSample* c : s.samples) {
      lengths.push_back(c->end - c->start);
      TimeNs inside = std::min(c->end, span_end) - std::max(c->start, span_start);  // both clamp to the sample
      if (inside <= 0) continue;
      overall_weighted[key.second] += c->value * static_cast<double>(inside);
      overall_weight[key.second] += static_cast<double>(inside);
    }
  }
  out.overall.assign(n, std::nan(""));
  for (std::size_t m = 0; m < n; ++m) {
    if (overall_weight[m] > 0) out.overall[m] = overall_weighted[m] / overall_weight[m];
  }
  if (!lengths.empty()) {
    std::nth_element(lengths.begin(), lengths.begin() + static_cast<std::ptrdiff_t>(lengths.size() / 2), lengths.end());
    out.median_sample_ns = lengths[lengths.size() / 2];
  }
}

// An accumulator with its n metric sums, zeroed the first time it is used.
Accumulator& fresh(Accumulator& a, std::size_t n) {
  if (a.weight.empty()) {
    a.weighted.assign(n, 0.0);
    a.weight.assign(n, 0.0);
  }
  return a;
}

// One activity into its category's and its kernel's accumulators: every sample overlapping it on its GPU,
// weighted by the overlap.
void attribute_activity(const GpuActivity& a, const SeriesMap& series, std::size_t n, Accumulator& cat,
                        Accumulator& ker) {
  TimeNs covered = 0;
  bool first_series = true;  // every metric is sampled over the same intervals: one series gives the samples
  for (std::size_t m = 0; m < n; ++m) {
    auto it = series.find({a.device, m});
    if (it == series.end()) continue;
    bool note_samples = first_series;
    first_series = false;
    const auto& samples = it->second.samples;
    // First sample that could overlap: starts after a.start - longest sample.
    auto first = std::lower_bound(samples.begin(), samples.end(), saturating_add(a.start, -it->second.longest),
                                  [](const CounterSample* s, TimeNs t) { return s->start < t; });
    TimeNs metric_cover = 0;
    for (auto s = first; s != samples.end() && (*s)->start < a.end; ++s) {
      TimeNs overlap = std::min(a.end, (*s)->end) - std::max(a.start, (*s)->start);
      if (overlap <= 0) continue;
      double w = static_cast<double>(overlap);
      cat.weighted[m] += (*s)->value * w;
      cat.weight[m] += w;
      ker.weighted[m] += (*s)->value * w;
      ker.weight[m] += w;
      metric_cover = saturating_add(metric_cover, overlap);
      if (note_samples) {
        cat.samples.insert(*s);
        ker.samples.insert(*s);
      }
    }
    covered = std::max(covered, std::min(metric_cover, a.end - a.start));
  }
  for (Accumulator* acc : {&cat, &ker}) {
    acc->kernels += 1;
    if (covered > 0) acc->covered_kernels += 1;
    acc->busy = saturating_add(acc->busy, a.end - a.start);
    acc->covered = saturating_add(acc->covered, covered);
  }
}

// The rows of the top kernels by busy time (ties by name id).
std::vector<CounterAttributionRow> top_kernel_rows(const Profile& p,
                                                   const std::unordered_map<StringId, Accumulator>& kernels,
                                                   std::size_t n, std::size_t top_kernels) {
  std::vector<std::pair<StringId, const Accumulator*>> ranked;
  for (const auto& [name, acc] : kernels) ranked.emplace_back(name, &acc);
  std::sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
    return x.second->busy != y.second->busy ? x.second->busy > y.second->busy : x.first < y.first;
  });
  if (ranked.size() > top_kernels) ranked.resize(top_kernels);
  std::vector<CounterAttributionRow> rows;
  for (const auto& [name, acc] : ranked) rows.push_back(finish_row(std::string(p.name_of(name)), *acc, n));
  return rows;
}

}  // namespace

double CounterAttributionRow::ran_share() const {
  return sampled_ns > 0 ? std::min(1.0, static_cast<double>(covered_ns) / static_cast<double>(sampled_ns)) : 0.0;
}

CounterAttribution attribute_counters(const Profile& p, std::size_t top_kernels) {
  return attribute_counters(p, classify_activities(p), top_kernels);
}

CounterAttribution attribute_counters(const Profile& p, const std::vector<KernelClass>& classes,
                                      std::size_t top_kernels) {
  CounterAttribution out;
  std::map<std::string, std::size_t> metric_index = index_metrics(p, out.metrics);
  if (metric_index.empty()) return out;
  const std::size_t n = out.metrics.size();
  SeriesMap series = sorted_series(p, metric_index);
  add_overall_means(p, series, n, out);
  std::map<Category, Accumulator> categories;
  std::unordered_map<StringId, Accumulator> kernels;
  for (std::size_t i = 0; i < p.gpu.size(); ++i) {
    const GpuActivity& a = p.gpu[i];
    if (a.end <= a.start) continue;
    attribute_activity(a, series, n, fresh(categories[classes[i].category], n), fresh(kernels[a.name], n));
  }
  for (const auto& [c, acc] : categories) out.by_category.push_back(finish_row(std::string(category_name(c)), acc, n));
  out.by_kernel = top_kernel_rows(p, kernels, n, top_kernels);
  auto by_busy = [](const CounterAttributionRow& x, const CounterAttributionRow& y) {
    return x.busy_ns != y.busy_ns ? x.busy_ns > y.busy_ns : x.key < y.key;
  };
  std::sort(out.by_category.begin(), out.by_category.end(), by_busy);
  return out;
}

}  // namespace cuprobe
