// Renders an ExporterSnapshot as a /metrics page: the Prometheus text format
// (0.0.4), or OpenMetrics 1.0 when asked. dcgm-exporter's names, types and units
// for what DCGM exports (DCGM_FI_PROF_* ratios 0-1, DCGM_FI_DEV_* in W, MHz, C,
// MiB, %), so dashboards built for it work; cuprobe_* for the rest. Series of a
// source that cannot be read are left out, never written as 0.
#pragma once

#include <string>
#include <string_view>

#include "exporter/exporter_snapshot.h"

namespace cuprobe {

std::string render_exporter_metrics(const ExporterSnapshot& snapshot, bool openmetrics);

// Whether an Accept header asks for OpenMetrics ("application/openmetrics-text").
bool accepts_openmetrics(std::string_view accept_header);

// Content-Type of each form.
const char* exporter_content_type(bool openmetrics);

}  // namespace cuprobe
