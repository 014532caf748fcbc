// Counters from a dcgm-exporter endpoint instead of CUPTI (`--source dcgm=URL`):
// where DCGM's profiling holds the counters (the GPU Operator's default), cuprobe
// reads what DCGM publishes rather than failing. A DeviceSampler that fetches the
// page every interval, parses it (common/prometheus_text.h) and turns DCGM's
// fields into cuprobe's columns (ratios become percentages): the profiling fields
// that collect/counters/counter_columns.h maps to a counter column, in its order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "collect/counters/device_sampler.h"
#include "common/prometheus_text.h"
#include "net/http_url.h"

namespace cuprobe {

// The rows of one page: one per whole GPU (MIG instances, with a GPU_I_ID label, are left
// out), `gpu` = dcgm-exporter's gpu label, values in `columns` order (NaN where absent).
std::vector<CounterRow> dcgm_rows(const PrometheusPage& page, const std::vector<std::string>& columns,
                                  std::int64_t start_ns, std::int64_t end_ns);

// Fetches the page once to learn its GPUs and fields; throws cuprobe::Error with exit code 3
// when the endpoint does not answer or carries none of the profiling fields.
std::unique_ptr<DeviceSampler> open_dcgm_sampler(const HttpUrl& url, const SamplerConfig& config);

}  // namespace cuprobe
