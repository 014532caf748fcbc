// Every named column a counter row can carry, in one table: its unit, what it
// means, the raw CUPTI metric it is sampled from on each chip and the presets
// that sample it, the DCGM field it corresponds to, and the /metrics series it
// becomes. Presets (metric_presets), the DCGM source (dcgm_sampler) and the
// exporter's page (exporter/exporter_metrics) all read it; nothing else maps a
// column to a name outside cuprobe. Raw names given with --metrics are columns
// too, but not in this table.
//
// Order matters: presets list their columns in table order, and so does the
// DCGM source (sample CSV/JSONL headers). Append; never reorder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>

namespace cuprobe {

// Where a column's values come from: PM sampling (CUPTI, or DCGM's profiling
// fields with --source dcgm); NVML's vital signs (collect/device/nvml_sampler and
// the exporter's NVML reads), which the exporter averages over its window; or
// NVML's health state (collect/device/nvml_health, the XID watcher), which the
// exporter serves as last read: running totals, the last XID, flags.
enum class ColumnSource : std::uint8_t { kCounter, kVital, kState };

// Bits of CounterColumn::presets.
inline constexpr unsigned kPresetTriage = 1u << 0;
inline constexpr unsigned kPresetPipes = 1u << 1;

// Raw CUPTI metric names per chip table (metric_presets: preset_chip_for);
// empty where the chip does not expose the quantity.
struct ChipMetricNames {
  std::string_view gh100, gb100, gb202;
};

struct CounterColumn {
  std::string_view name;  // "tensor_active_pct"
  ColumnSource source;
  std::string_view unit;         // "%", "bytes/s", "W", "MHz", "C", "bytes", "bitmask"
  std::string_view description;  // what `sample --list-metrics` prints for a preset column
  unsigned presets = 0;          // kPreset* bits: the presets that sample it
  ChipMetricNames cupti = {};    // raw CUPTI names (preset columns only)
  // The /metrics series: the DCGM field's own name when DCGM has the quantity
  // (dcgm-exporter's name, so its dashboards work), else cuprobe's.
  std::string_view series;
  int dcgm_field_id = 0;  // DCGM's field id of `series`; 0 for cuprobe's own series
  // series value = column value × series_scale (a percentage becomes DCGM's 0-1 ratio);
  // --source dcgm reads the other way: column = DCGM value × (1 / series_scale).
  double series_scale = 1;
  std::string_view series_help;            // the HELP line on /metrics
  std::string_view pipe = "";              // value of the `pipe` label, "" for none
  std::string_view series_type = "gauge";  // "gauge" or "counter", as dcgm-exporter types the field
};

namespace counter_columns_detail {

inline constexpr double kRatio = 0.01;  // a percentage exported as a ratio
inline constexpr double kMiB = 1.0 / (1 << 20);
inline constexpr unsigned kBoth = kPresetTriage | kPresetPipes;

// Checked with the CUPTI host API (tests/collect/counters/cupti/metric_presets_cupti_test.cpp):
// every name is valid for its chip and each chip's set fits in one PM sampling pass.
// None of these chips exposes a separate FP8/FP4 tensor counter to PM sampling: FP8
// and FP4 MMA show up in tensor_active_pct only. DMMA (fp64) is in no preset on purpose: on an
// H200, the set with SM_C.TriageCompute.smsp__pipe_tensor_op_dmma_cycles_active (which needs
// the TPC.TriageCompute. form of sm__cycles_active to stay in one pass) made about one 10 ms
// sample in six read ~0 for every SM-side counter during a GEMM (docs/validation.md).
// DMMA stays available through --metrics.
//
// `pipes` is `triage` plus the per-kind tensor and FMA counters, which Hopper and datacenter
// Blackwell expose to PM sampling only per TPC ("TPC.TriageCompute."). Measured on an H200
// (docs/validation.md, sampler cost): with them the hardware streams so much that CUPTI's
// decoding costs 16-39% of a CPU core per GPU at any interval, against about 4% at 1 ms
// without; and they are the sets that showed the zero-reading samples. So they are opt-in.
inline constexpr CounterColumn kColumns[] = {
    {
        .name = "gr_active_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "graphics/compute engine busy (some work resident), % of elapsed cycles",
        .presets = kBoth,
        .cupti = {.gh100 = "gr__cycles_active.avg.pct_of_peak_sustained_elapsed",
                  .gb100 = "gr__cycles_active.avg.pct_of_peak_sustained_elapsed",
                  .gb202 = "gr__cycles_active.avg.pct_of_peak_sustained_elapsed"},
        .series = "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
        .dcgm_field_id = 1001,
        .series_scale = kRatio,
        .series_help = "Ratio of time the graphics engine is active.",
    },
    {
        .name = "sm_active_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "SMs with at least one warp resident, % of elapsed cycles",
        .presets = kBoth,
        .cupti = {.gh100 = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
                  .gb100 = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
                  .gb202 = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"},
        .series = "DCGM_FI_PROF_SM_ACTIVE",
        .dcgm_field_id = 1002,
        .series_scale = kRatio,
        .series_help = "The ratio of cycles an SM has at least 1 warp assigned.",
    },
    {
        .name = "tensor_active_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "tensor pipe active (any precision), % of elapsed cycles",
        .presets = kBoth,
        .cupti = {.gh100 = "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
                  .gb100 = "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
                  .gb202 = "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"},
        .series = "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
        .dcgm_field_id = 1004,
        .series_scale = kRatio,
        .series_help = "Ratio of cycles the tensor (HMMA) pipe is active.",
    },
    {
        .name = "tensor_hmma_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "tensor pipe active on HMMA (fp16/bf16/tf32), % of elapsed cycles",
        .presets = kPresetPipes,
        .cupti =
            {.gh100 =
                 "TPC.TriageCompute.sm__pipe_tensor_op_hmma_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
             .gb100 = "TPC.TriageCompute.sm__pipe_tensor_subpipe_hmma_cycles_active_realtime.avg.pct_of_peak_sustained_"
                      "elapsed",
             .gb202 = "sm__pipe_tensor_subpipe_hmma_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"},
        .series = "DCGM_FI_PROF_PIPE_TENSOR_HMMA_ACTIVE",
        .dcgm_field_id = 1014,
        .series_scale = kRatio,
        .series_help = "The ratio of cycles the tensor (HMMA) pipe is active (off the peak sustained elapsed cycles).",
    },
    {
        .name = "tensor_imma_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "tensor pipe active on IMMA (int8/int4), % of elapsed cycles",
        .presets = kPresetPipes,
        .cupti =
            {.gh100 =
                 "TPC.TriageCompute.sm__pipe_tensor_op_imma_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
             .gb100 = "TPC.TriageCompute.sm__pipe_tensor_subpipe_imma_cycles_active_realtime.avg.pct_of_peak_sustained_"
                      "elapsed",
             .gb202 = "sm__pipe_tensor_subpipe_imma_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"},
        .series = "DCGM_FI_PROF_PIPE_TENSOR_IMMA_ACTIVE",
        .dcgm_field_id = 1013,
        .series_scale = kRatio,
        .series_help = "The ratio of cycles the tensor (IMMA) pipe is active (off the peak sustained elapsed cycles).",
    },
    {
        .name = "tensor_dmma_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "tensor pipe active on DMMA (fp64), % of elapsed cycles",
        .series = "DCGM_FI_PROF_PIPE_TENSOR_DFMA_ACTIVE",
        .dcgm_field_id = 1015,
        .series_scale = kRatio,
        .series_help = "The ratio of cycles the tensor (DFMA) pipe is active (off the peak sustained elapsed cycles).",
    },
    {
        .name = "fma_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description =
            "FMA pipe (fp32/int CUDA-core math), % of peak (instructions on GH100, active cycles on Blackwell)",
        .presets = kPresetPipes,
        .cupti = {.gh100 = "TPC.TriageCompute.sm__inst_executed_pipe_fma_realtime.avg.pct_of_peak_sustained_elapsed",
                  .gb100 = "TPC.TriageCompute.sm__pipe_fma_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
                  .gb202 = "sm__pipe_fma_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"},
        .series = "cuprobe_pipe_fma_active",
        .series_scale = kRatio,
        .series_help =
            "FMA pipe (fp32/int CUDA-core math), ratio of peak (instructions on GH100, active cycles on Blackwell).",
    },
    {
        .name = "dram_read_bytes_per_s",
        .source = ColumnSource::kCounter,
        .unit = "bytes/s",
        .description = "DRAM bytes read per second",
        .presets = kBoth,
        .cupti = {.gh100 = "dram__bytes_read.sum.per_second",
                  .gb100 = "dram__bytes_read.sum.per_second",
                  .gb202 = "dram__bytes_op_read.sum.per_second"},
        .series = "cuprobe_dram_read_bytes_per_second",
        .series_help = "DRAM bytes read per second.",
    },
    {
        .name = "dram_write_bytes_per_s",
        .source = ColumnSource::kCounter,
        .unit = "bytes/s",
        .description = "DRAM bytes written per second",
        .presets = kBoth,
        .cupti = {.gh100 = "dram__bytes_write.sum.per_second",
                  .gb100 = "dram__bytes_write.sum.per_second",
                  .gb202 = "dram__bytes_op_write.sum.per_second"},
        .series = "cuprobe_dram_write_bytes_per_second",
        .series_help = "DRAM bytes written per second.",
    },
    {
        .name = "dram_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "DRAM throughput (read + write), % of peak",
        .presets = kBoth,
        .cupti = {.gh100 = "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                  .gb100 = "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                  .gb202 = "dram__throughput.avg.pct_of_peak_sustained_elapsed"},
        // Not DCGM's DRAM_ACTIVE (dram_active_pct below: cycles the interface is active): bytes moved
        // against the peak.
        .series = "cuprobe_dram_throughput_active",
        .series_scale = kRatio,
        .series_help = "DRAM throughput (read + write), ratio of peak.",
    },
    {
        .name = "dram_read_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "DRAM read throughput, % of peak",
        .presets = kBoth,
        .cupti = {.gh100 = "dram__read_throughput.avg.pct_of_peak_sustained_elapsed",
                  .gb100 = "dram__read_throughput.avg.pct_of_peak_sustained_elapsed",
                  .gb202 = "dram__read_throughput.avg.pct_of_peak_sustained_elapsed"},
        .series = "cuprobe_dram_read_active",
        .series_scale = kRatio,
        .series_help = "DRAM read throughput, ratio of peak.",
    },
    {
        .name = "dram_write_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "DRAM write throughput, % of peak",
        .presets = kBoth,
        .cupti = {.gh100 = "dram__write_throughput.avg.pct_of_peak_sustained_elapsed",
                  .gb100 = "dram__write_throughput.avg.pct_of_peak_sustained_elapsed",
                  .gb202 = "dram__write_throughput.avg.pct_of_peak_sustained_elapsed"},
        .series = "cuprobe_dram_write_active",
        .series_scale = kRatio,
        .series_help = "DRAM write throughput, ratio of peak.",
    },
    {
        .name = "fp64_active_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "fp64 pipes active, % of elapsed cycles (DCGM)",
        .series = "DCGM_FI_PROF_PIPE_FP64_ACTIVE",
        .dcgm_field_id = 1006,
        .series_scale = kRatio,
        .series_help = "Ratio of cycles the fp64 pipes are active.",
    },
    {
        .name = "fp32_active_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "fp32 pipes active, % of elapsed cycles (DCGM)",
        .series = "DCGM_FI_PROF_PIPE_FP32_ACTIVE",
        .dcgm_field_id = 1007,
        .series_scale = kRatio,
        .series_help = "Ratio of cycles the fp32 pipes are active.",
    },
    {
        .name = "fp16_active_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "fp16 pipes active (without HMMA), % of elapsed cycles (DCGM)",
        .series = "DCGM_FI_PROF_PIPE_FP16_ACTIVE",
        .dcgm_field_id = 1008,
        .series_scale = kRatio,
        .series_help = "Ratio of cycles the fp16 pipes are active.",
    },
    {
        .name = "pcie_read_bytes_per_s",
        .source = ColumnSource::kCounter,
        .unit = "bytes/s",
        .description = "PCIe bytes read per second",
        .presets = kBoth,
        .cupti = {.gh100 = "pcie__read_bytes.sum.per_second",
                  .gb100 = "PCI.TriageCompute.pcie__read_bytes.sum.per_second",
                  .gb202 = "pcie__read_bytes.sum.per_second"},
        .series = "DCGM_FI_PROF_PCIE_RX_BYTES",
        .dcgm_field_id = 1010,
        .series_help = "The rate of data received over the PCIe bus - including both protocol headers and data "
                       "payloads - in bytes "
                       "per second.",
    },
    {
        .name = "pcie_write_bytes_per_s",
        .source = ColumnSource::kCounter,
        .unit = "bytes/s",
        .description = "PCIe bytes written per second",
        .presets = kBoth,
        .cupti = {.gh100 = "pcie__write_bytes.sum.per_second",
                  .gb100 = "PCI.TriageCompute.pcie__write_bytes.sum.per_second",
                  .gb202 = "pcie__write_bytes.sum.per_second"},
        .series = "DCGM_FI_PROF_PCIE_TX_BYTES",
        .dcgm_field_id = 1009,
        .series_help =
            "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in "
            "bytes per second.",
    },
    {
        .name = "nvlink_rx_bytes_per_s",
        .source = ColumnSource::kCounter,
        .unit = "bytes/s",
        .description = "NVLink bytes received per second",
        .presets = kBoth,
        .cupti = {.gh100 = "nvlrx__bytes.sum.per_second", .gb100 = "nvlrx__bytes.sum.per_second", .gb202 = ""},
        .series = "DCGM_FI_PROF_NVLINK_RX_BYTES",
        .dcgm_field_id = 1012,
        .series_help = "The rate of data received over NVLink, not including protocol headers, in bytes per second.",
    },
    {
        .name = "nvlink_tx_bytes_per_s",
        .source = ColumnSource::kCounter,
        .unit = "bytes/s",
        .description = "NVLink bytes sent per second",
        .presets = kBoth,
        .cupti = {.gh100 = "nvltx__bytes.sum.per_second", .gb100 = "nvltx__bytes.sum.per_second", .gb202 = ""},
        .series = "DCGM_FI_PROF_NVLINK_TX_BYTES",
        .dcgm_field_id = 1011,
        .series_help = "The rate of data transmitted over NVLink, not including protocol headers, in bytes per second.",
    },
    // NVML's vital signs, in collect/device/nvml_sampler's column order.
    {
        .name = "power_w",
        .source = ColumnSource::kVital,
        .unit = "W",
        .description = "power draw",
        .series = "DCGM_FI_DEV_POWER_USAGE",
        .dcgm_field_id = 155,
        .series_help = "Power draw (in W).",
    },
    {
        .name = "sm_clock_mhz",
        .source = ColumnSource::kVital,
        .unit = "MHz",
        .description = "SM clock",
        .series = "DCGM_FI_DEV_SM_CLOCK",
        .dcgm_field_id = 100,
        .series_help = "SM clock frequency (in MHz).",
    },
    {
        .name = "mem_clock_mhz",
        .source = ColumnSource::kVital,
        .unit = "MHz",
        .description = "memory clock",
        .series = "DCGM_FI_DEV_MEM_CLOCK",
        .dcgm_field_id = 101,
        .series_help = "Memory clock frequency (in MHz).",
    },
    {
        .name = "temperature_c",
        .source = ColumnSource::kVital,
        .unit = "C",
        .description = "GPU temperature",
        .series = "DCGM_FI_DEV_GPU_TEMP",
        .dcgm_field_id = 150,
        .series_help = "GPU temperature (in C).",
    },
    {
        .name = "memory_used_bytes",
        .source = ColumnSource::kVital,
        .unit = "bytes",
        .description = "device memory used",
        .series = "DCGM_FI_DEV_FB_USED",
        .dcgm_field_id = 252,
        .series_scale = kMiB,
        .series_help = "Framebuffer memory used (in MiB).",
    },
    {
        .name = "gpu_util_pct",
        .source = ColumnSource::kVital,
        .unit = "%",
        .description = "NVML's GPU utilization (time some kernel ran)",
        .series = "DCGM_FI_DEV_GPU_UTIL",
        .dcgm_field_id = 203,
        .series_help = "GPU utilization (in %).",
    },
    // On /metrics, the bits seen during the window (exporter: per reason, then this mask).
    {
        .name = "clock_event_reasons",
        .source = ColumnSource::kVital,
        .unit = "bitmask",
        .description = "clock event (throttle) reasons, nvmlClocksEventReasons",
        .series = "DCGM_FI_DEV_CLOCKS_EVENT_REASONS",
        .dcgm_field_id = 112,
        .series_help = "Current clock event reasons (bitmask of nvmlClocksEventReasons; bits seen during the window).",
    },
    // DRAM_ACTIVE counts cycles the memory interface is active (DCGM's definition), which PM
    // sampling reads as dram__cycles_active against the elapsed cycles: the column is its
    // .avg.pct_of_peak_sustained_elapsed, the series that / 100 (DCGM's 0-1 ratio). Not
    // dram_pct (above), which is bytes moved against the peak bandwidth.
    {
        .name = "dram_active_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "device memory interface active sending or receiving data, % of elapsed cycles (DCGM)",
        .presets = kBoth,
        .cupti = {.gh100 = "dram__cycles_active.avg.pct_of_peak_sustained_elapsed",
                  .gb100 = "dram__cycles_active.avg.pct_of_peak_sustained_elapsed",
                  .gb202 = "dram__cycles_active.avg.pct_of_peak_sustained_elapsed"},
        .series = "DCGM_FI_PROF_DRAM_ACTIVE",
        .dcgm_field_id = 1005,
        .series_scale = kRatio,
        .series_help = "Ratio of cycles the device memory interface is active sending or receiving data.",
    },
    {
        .name = "sm_occupancy_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "warps resident on an SM, % of the maximum (DCGM)",
        .series = "DCGM_FI_PROF_SM_OCCUPANCY",
        .dcgm_field_id = 1003,
        .series_scale = kRatio,
        .series_help = "The ratio of number of warps resident on an SM.",
    },
    {
        .name = "int_active_pct",
        .source = ColumnSource::kCounter,
        .unit = "%",
        .description = "integer pipe active, % of elapsed cycles (DCGM)",
        .series = "DCGM_FI_PROF_PIPE_INT_ACTIVE",
        .dcgm_field_id = 1016,
        .series_scale = kRatio,
        .series_help = "Ratio of cycles the integer pipe is active.",
    },
    // NVML read by the exporter beside the vital signs (collect/device/nvml_health), averaged
    // over the window like them.
    {
        .name = "memory_free_bytes",
        .source = ColumnSource::kVital,
        .unit = "bytes",
        .description = "device memory free",
        .series = "DCGM_FI_DEV_FB_FREE",
        .dcgm_field_id = 251,
        .series_scale = kMiB,
        .series_help = "Framebuffer memory free (in MiB).",
    },
    {
        .name = "memory_reserved_bytes",
        .source = ColumnSource::kVital,
        .unit = "bytes",
        .description = "device memory reserved by the driver",
        .series = "DCGM_FI_DEV_FB_RESERVED",
        .dcgm_field_id = 253,
        .series_scale = kMiB,
        .series_help = "Framebuffer memory reserved (in MiB).",
    },
    {
        .name = "memory_temp_c",
        .source = ColumnSource::kVital,
        .unit = "C",
        .description = "memory (HBM) temperature",
        .series = "DCGM_FI_DEV_MEMORY_TEMP",
        .dcgm_field_id = 140,
        .series_help = "Memory temperature (in C).",
    },
    {
        .name = "mem_copy_util_pct",
        .source = ColumnSource::kVital,
        .unit = "%",
        .description = "NVML memory utilization (time device memory was read or written)",
        .series = "DCGM_FI_DEV_MEM_COPY_UTIL",
        .dcgm_field_id = 204,
        .series_help = "Memory utilization (in %).",
    },
    {
        .name = "enc_util_pct",
        .source = ColumnSource::kVital,
        .unit = "%",
        .description = "video encoder utilization",
        .series = "DCGM_FI_DEV_ENC_UTIL",
        .dcgm_field_id = 206,
        .series_help = "Encoder utilization (in %).",
    },
    {
        .name = "dec_util_pct",
        .source = ColumnSource::kVital,
        .unit = "%",
        .description = "video decoder utilization",
        .series = "DCGM_FI_DEV_DEC_UTIL",
        .dcgm_field_id = 207,
        .series_help = "Decoder utilization (in %).",
    },
    // NVML state, served as last read (running totals, the last XID, flags).
    {
        .name = "energy_mj",
        .source = ColumnSource::kState,
        .unit = "mJ",
        .description = "energy consumed since the driver was loaded",
        .series = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
        .dcgm_field_id = 156,
        .series_help = "Total energy consumption since boot (in mJ).",
        .series_type = "counter",
    },
    {
        .name = "pcie_replays",
        .source = ColumnSource::kState,
        .unit = "count",
        .description = "PCIe replays (retries) since the driver was loaded",
        .series = "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
        .dcgm_field_id = 202,
        .series_help = "Total number of PCIe retries.",
        .series_type = "counter",
    },
    {
        .name = "xid_last",
        .source = ColumnSource::kState,
        .unit = "code",
        .description = "the last XID error seen since the exporter started (0: none)",
        .series = "DCGM_FI_DEV_XID_ERRORS",
        .dcgm_field_id = 230,
        .series_help = "Value of the last XID error encountered.",
    },
    {
        .name = "xid_errors",
        .source = ColumnSource::kState,
        .unit = "count",
        .description = "XID errors seen since the exporter started",
        .series = "cuprobe_xid_errors_total",
        .series_help = "XID errors (nvmlEventTypeXidCriticalError events) seen since the exporter started.",
        .series_type = "counter",
    },
    {
        .name = "nvlink_kib",
        .source = ColumnSource::kState,
        .unit = "KiB",
        .description = "NVLink data sent and received over all links (NVML throughput counters)",
        .series = "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
        .dcgm_field_id = 449,
        .series_help = "Total number of NVLink bandwidth counters for all lanes.",
        .series_type = "counter",
    },
    {
        .name = "vgpu_license",
        .source = ColumnSource::kState,
        .unit = "flag",
        .description = "vGPU license status in a vGPU guest (1 licensed, 0 not)",
        .series = "DCGM_FI_DEV_VGPU_LICENSE_STATUS",
        .dcgm_field_id = 526,
        .series_help = "vGPU License status",
    },
    {
        .name = "uncorrectable_remapped_rows",
        .source = ColumnSource::kState,
        .unit = "count",
        .description = "rows remapped for uncorrectable errors",
        .series = "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
        .dcgm_field_id = 393,
        .series_help = "Number of remapped rows for uncorrectable errors",
        .series_type = "counter",
    },
    {
        .name = "correctable_remapped_rows",
        .source = ColumnSource::kState,
        .unit = "count",
        .description = "rows remapped for correctable errors",
        .series = "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS",
        .dcgm_field_id = 394,
        .series_help = "Number of remapped rows for correctable errors",
        .series_type = "counter",
    },
    {
        .name = "row_remap_failure",
        .source = ColumnSource::kState,
        .unit = "flag",
        .description = "whether remapping of rows has failed",
        .series = "DCGM_FI_DEV_ROW_REMAP_FAILURE",
        .dcgm_field_id = 395,
        .series_help = "Whether remapping of rows has failed",
    },
};

constexpr bool columns_valid() {
  constexpr std::string_view kDcgmPrefix = "DCGM_FI_";
  for (std::size_t i = 0; i < std::size(kColumns); ++i) {
    const CounterColumn& c = kColumns[i];
    if (c.name.empty() || c.unit.empty() || c.description.empty() || c.series.empty() || c.series_help.empty())
      return false;
    if (!(c.series_scale > 0) || 1.0 / (1.0 / c.series_scale) != c.series_scale) return false;
    if ((c.dcgm_field_id != 0) != (c.series.substr(0, kDcgmPrefix.size()) == kDcgmPrefix)) return false;
    if (c.presets != 0 && (c.source != ColumnSource::kCounter || c.cupti.gh100.empty())) return false;
    if (c.series_type != "gauge" && c.series_type != "counter") return false;
    if (c.series_type == "counter" && c.dcgm_field_id == 0 && !c.series.ends_with("_total")) return false;
    for (std::size_t j = 0; j < i; ++j) {
      const CounterColumn& d = kColumns[j];
      if (c.name == d.name) return false;
      if (c.series == d.series && c.pipe == d.pipe) return false;
      if (c.dcgm_field_id != 0 && c.dcgm_field_id == d.dcgm_field_id) return false;
    }
  }
  return true;
}
static_assert(columns_valid(), "counter columns: names, series and DCGM fields unique; scales invertible");

}  // namespace counter_columns_detail

// The whole table, in order.
inline constexpr std::span<const CounterColumn> kCounterColumns{counter_columns_detail::kColumns};

// The column of that name and source; nullptr when the table has none (a raw --metrics name).
constexpr const CounterColumn* find_counter_column(std::string_view name, ColumnSource source) {
  for (const CounterColumn& c : kCounterColumns) {
    if (c.name == name && c.source == source) return &c;
  }
  return nullptr;
}

}  // namespace cuprobe
