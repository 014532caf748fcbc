// What the exporter reads from NVML beside the vital signs, for dcgm-exporter's
// default series: memory free/reserved (memory info v2), memory temperature
// (field NVML_FI_DEV_MEMORY_TEMP), encoder/decoder/memory utilisation, energy since
// the driver loaded, PCIe replays, remapped rows, NVLink data (throughput
// counters, all links) and, in a vGPU guest, the license state. NaN wherever NVML
// cannot tell (function missing, not supported on this GPU, not applicable):
// the series is then absent, never 0.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "collect/device/nvml.h"

namespace cuprobe {

struct NvmlHealth {
  double memory_total_bytes = NAN, memory_free_bytes = NAN, memory_used_bytes = NAN, memory_reserved_bytes = NAN;
  double memory_temp_c = NAN;
  double mem_copy_util_pct = NAN, enc_util_pct = NAN, dec_util_pct = NAN;
  double energy_mj = NAN, pcie_replays = NAN, nvlink_kib = NAN;
  double correctable_remapped_rows = NAN, uncorrectable_remapped_rows = NAN, row_remap_failure = NAN;
  double vgpu_license = NAN;  // only in a vGPU guest: elsewhere not applicable
};

// False when the device cannot be opened.
bool read_nvml_health(const Nvml& nvml, int index, NvmlHealth& out);

// The value of the table column `name` (collect/counters/counter_columns.h, the kVital
// ones NVML's vitals do not carry and the kState ones but the XID's); NaN for other names.
double nvml_health_value(const NvmlHealth& health, const std::string& name);

}  // namespace cuprobe
