#include "analysis/measured_bytes.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>
#include <unordered_map>

namespace cuprobe {
namespace {

// Metric names: the preset columns (`record --counters`) and the raw CUPTI names (`--metrics`).
constexpr std::string_view kReadBytes[] = {"dram_read_bytes_per_s", "dram__bytes_read.sum.per_second",
                                           "dram__bytes_op_read.sum.per_second"};
constexpr std::string_view kWriteBytes[] = {"dram_write_bytes_per_s", "dram__bytes_write.sum.per_second",
                                            "dram__bytes_op_write.sum.per_second"};
constexpr std::string_view kPercent[] = {"dram_pct", "dram__throughput.avg.pct_of_peak_sustained_elapsed"};

// The mean of the first of `names` that the metrics have with a reading.
std::optional<double> reading(std::span<const std::string_view> names, const std::vector<std::string>& metrics,
                              const std::vector<double>& means) {
  for (std::string_view name : names) {
    for (std::size_t m = 0; m < metrics.size() && m < means.size(); ++m) {
      if (metrics[m] == name && std::isfinite(means[m])) return means[m];
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> dram_bytes_per_s(const std::vector<std::string>& metrics, const std::vector<double>& means,
                                       const std::optional<DevicePeaks>& peaks) {
  auto read = reading(kReadBytes, metrics, means);
  auto write = reading(kWriteBytes, metrics, means);
  if (read && write) return std::max(0.0, *read + *write);
  auto percent = reading(kPercent, metrics, means);
  if (percent && peaks && peaks->memory_tbps) return std::max(0.0, *percent / 100 * *peaks->memory_tbps * 1e12);
  return std::nullopt;
}

void fill_measured_bytes(const CounterAttribution& counters, RankAnalysis& analysis) {
  std::unordered_map<std::string_view, const CounterAttributionRow*> by_name;
  for (const auto& row : counters.by_kernel) by_name.emplace(row.key, &row);
  for (auto& k : analysis.kernels) {
    auto it = by_name.find(k.name);
    if (it == by_name.end() || !it->second->readings_are_own()) continue;
    const CounterAttributionRow& c = *it->second;
    auto rate = dram_bytes_per_s(counters.metrics, c.means, analysis.peaks);
    if (!rate) continue;
    double seconds = static_cast<double>(c.covered_ns) / 1e9;
    k.dram_bytes_measured = *rate * seconds;
    if (k.work) continue;  // bytes from shapes or a memcpy record count what the work needs: they stay
    KernelWork w;
    w.source = "counters";
    w.bytes = *k.dram_bytes_measured;
    w.calls = c.covered_kernels;
    w.time_ms = seconds * 1e3;
    w.achieved_tbps = *rate / 1e12;
    if (analysis.peaks && analysis.peaks->memory_tbps && *analysis.peaks->memory_tbps > 0)
      w.peak_share = w.achieved_tbps / *analysis.peaks->memory_tbps;
    k.work = std::move(w);
  }
}

}  // namespace cuprobe
