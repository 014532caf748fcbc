// What a chip offers to PM sampling, from the CUPTI profiler host API: works
// with a chip name alone, no GPU or driver needed (so CI can check presets).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cuprobe {

struct MetricInfo {
  std::string name;  // base metric, e.g. "dram__bytes_read"
  std::string type;  // "counter", "ratio", "throughput"
  std::string description;
  std::string unit;  // dimension, e.g. "bytes"
};

// Chips this CUPTI knows. Throws exit 3 when built without CUPTI.
std::vector<std::string> catalog_supported_chips();

// Base metrics of a chip. Throws exit 2 for an unknown chip, exit 3 without CUPTI.
std::vector<MetricInfo> list_chip_metrics(const std::string& chip);

struct MetricCheck {
  bool ok = false;
  std::size_t passes = 0;
  std::string error;  // first problem, e.g. "'foo' is not a metric of GH100"
};

// Can `raw_metrics` be sampled together (valid names, one pass) on `chip`?
MetricCheck check_chip_metrics(const std::string& chip, const std::vector<std::string>& raw_metrics);

}  // namespace cuprobe
