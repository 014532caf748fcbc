// DRAM bytes measured per kernel from device-wide counter samples (run files
// recorded with counters). Where a kernel name's calls fill most of the sampled
// time they overlap (CounterAttributionRow::readings_are_own, the rule the
// counter table uses), its bytes are the DRAM rate read while it ran times the
// time the samples cover it. The rate is the DRAM read plus write byte rates
// where the samples have them, else the DRAM throughput percentage times the
// GPU's memory-bandwidth peak. Where counters do not cover a kernel, nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis_result.h"
#include "analysis/counter_attribution.h"
#include "analysis/device_peaks.h"

namespace cuprobe {

// DRAM bytes per second from a row's mean readings (`means` parallel to `metrics`);
// none when the metrics hold no DRAM traffic, or only the percentage and no memory peak.
std::optional<double> dram_bytes_per_s(const std::vector<std::string>& metrics, const std::vector<double>& means,
                                       const std::optional<DevicePeaks>& peaks);

// Sets KernelRow::dram_bytes_measured from `counters.by_kernel` (which must hold every
// kernel the rows name, not only the top ones), and gives the rows without work from
// shapes or memcpy records work from those bytes (source "counters"; FLOPs unknown,
// so peak_share is of the memory peak and bound stays empty).
void fill_measured_bytes(const CounterAttribution& counters, RankAnalysis& analysis);

}  // namespace cuprobe
