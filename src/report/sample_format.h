// Line formats of `cuprobe sample`: CSV (header, then gpu,start_ns,end_ns,<metric>...)
// and JSONL ({"gpu":0,"start_ns":..,"end_ns":..,"<metric>":value,...}). A value
// that was not read is an empty CSV field or JSON null, never 0. The columns are
// the sampler's: the PM counters, then NVML's vital signs (power_w, ...,
// clock_event_reasons: collect/device/nvml_sampler.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "collect/counters/device_sampler.h"

namespace cuprobe {

enum class SampleFormat { kCsv, kJsonl };

// "csv" or "jsonl"; throws exit 2 otherwise.
SampleFormat parse_sample_format(std::string_view text);

class SampleLineWriter {
 public:
  SampleLineWriter(SampleFormat format, std::vector<std::string> metric_names);
  std::string header() const;                     // CSV header line with '\n'; "" for JSONL
  std::string line(const CounterRow& row) const;  // one line with '\n'

 private:
  SampleFormat format_;
  std::vector<std::string> names_;
};

// Shortest text that reads back as the same double ("93.25", "2.1e+12"); "" for NaN/inf.
std::string format_sample_value(double v);

}  // namespace cuprobe
