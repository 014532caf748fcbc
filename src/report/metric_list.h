// `cuprobe sample --list-metrics`: a preset's columns on a chip (column, raw
// metric, meaning), then every base metric the chip offers (name, type, unit,
// description), tab-separated under '#' comment lines.
#pragma once

#include <string>
#include <vector>

#include "collect/counters/metric_catalog.h"

namespace cuprobe {

std::string format_metric_list(const std::string& chip, const std::string& preset,
                               const std::vector<MetricInfo>& metrics);

}  // namespace cuprobe
