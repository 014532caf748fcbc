#include "collect/counters/metric_presets.h"

#include <algorithm>
#include <set>

#include "common/error.h"

namespace cuprobe {
namespace {

constexpr const char* kPct = ".avg.pct_of_peak_sustained_elapsed";

std::string pct(const std::string& base) { return base.empty() ? base : base + kPct; }

// Checked with the CUPTI host API (tests/collect/counters/cupti/metric_presets_cupti_test.cpp):
// every name is valid for its chip and each chip's set fits in one PM sampling pass.
// None of these chips exposes a separate FP8/FP4 tensor counter to PM sampling: FP8
// and FP4 MMA show up in tensor_active_pct only. DMMA (fp64) is left out on purpose: on an
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
std::vector<PresetEntry> make_pipes() {
  return {
      {"gr_active_pct", "graphics/compute engine busy (some work resident), % of elapsed cycles",
       pct("gr__cycles_active"), pct("gr__cycles_active"), pct("gr__cycles_active")},
      {"sm_active_pct", "SMs with at least one warp resident, % of elapsed cycles", pct("sm__cycles_active"),
       pct("sm__cycles_active"), pct("sm__cycles_active")},
      {"tensor_active_pct", "tensor pipe active (any precision), % of elapsed cycles",
       pct("sm__pipe_tensor_cycles_active_realtime"), pct("sm__pipe_tensor_cycles_active_realtime"),
       pct("sm__pipe_tensor_cycles_active_realtime")},
      {"tensor_hmma_pct", "tensor pipe active on HMMA (fp16/bf16/tf32), % of elapsed cycles",
       pct("TPC.TriageCompute.sm__pipe_tensor_op_hmma_cycles_active_realtime"),
       pct("TPC.TriageCompute.sm__pipe_tensor_subpipe_hmma_cycles_active_realtime"),
       pct("sm__pipe_tensor_subpipe_hmma_cycles_active_realtime")},
      {"tensor_imma_pct", "tensor pipe active on IMMA (int8/int4), % of elapsed cycles",
       pct("TPC.TriageCompute.sm__pipe_tensor_op_imma_cycles_active_realtime"),
       pct("TPC.TriageCompute.sm__pipe_tensor_subpipe_imma_cycles_active_realtime"),
       pct("sm__pipe_tensor_subpipe_imma_cycles_active_realtime")},
      {"fma_pct", "FMA pipe (fp32/int CUDA-core math), % of peak (instructions on GH100, active cycles on Blackwell)",
       pct("TPC.TriageCompute.sm__inst_executed_pipe_fma_realtime"),
       pct("TPC.TriageCompute.sm__pipe_fma_cycles_active_realtime"), pct("sm__pipe_fma_cycles_active_realtime")},
      {"dram_read_bytes_per_s", "DRAM bytes read per second", "dram__bytes_read.sum.per_second",
       "dram__bytes_read.sum.per_second", "dram__bytes_op_read.sum.per_second"},
      {"dram_write_bytes_per_s", "DRAM bytes written per second", "dram__bytes_write.sum.per_second",
       "dram__bytes_write.sum.per_second", "dram__bytes_op_write.sum.per_second"},
      {"dram_pct", "DRAM throughput (read + write), % of peak", pct("dram__throughput"), pct("dram__throughput"),
       pct("dram__throughput")},
      {"dram_read_pct", "DRAM read throughput, % of peak", pct("dram__read_throughput"), pct("dram__read_throughput"),
       pct("dram__read_throughput")},
      {"dram_write_pct", "DRAM write throughput, % of peak", pct("dram__write_throughput"),
       pct("dram__write_throughput"), pct("dram__write_throughput")},
      {"pcie_read_bytes_per_s", "PCIe bytes read per second", "pcie__read_bytes.sum.per_second",
       "PCI.TriageCompute.pcie__read_bytes.sum.per_second", "pcie__read_bytes.sum.per_second"},
      {"pcie_write_bytes_per_s", "PCIe bytes written per second", "pcie__write_bytes.sum.per_second",
       "PCI.TriageCompute.pcie__write_bytes.sum.per_second", "pcie__write_bytes.sum.per_second"},
      {"nvlink_rx_bytes_per_s", "NVLink bytes received per second", "nvlrx__bytes.sum.per_second",
       "nvlrx__bytes.sum.per_second", ""},
      {"nvlink_tx_bytes_per_s", "NVLink bytes sent per second", "nvltx__bytes.sum.per_second",
       "nvltx__bytes.sum.per_second", ""},
  };
}

// The columns Hopper exposes to PM sampling only per TPC (the `pipes` extras).
bool is_per_tpc_on_hopper(const PresetEntry& e) { return e.gh100.rfind("TPC.", 0) == 0; }

std::vector<PresetEntry> make_triage() {
  std::vector<PresetEntry> entries = make_pipes();
  entries.erase(std::remove_if(entries.begin(), entries.end(), is_per_tpc_on_hopper), entries.end());
  return entries;
}

bool valid_metric_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

}  // namespace

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names = {"triage", "pipes"};
  return names;
}

const std::vector<std::string>& preset_chips() {
  static const std::vector<std::string> chips = {"GH100", "GB100", "GB202"};
  return chips;
}

const std::vector<PresetEntry>& preset_entries(std::string_view preset) {
  static const std::vector<PresetEntry> triage = make_triage();
  static const std::vector<PresetEntry> pipes = make_pipes();
  static const std::vector<PresetEntry> none;
  return preset == "triage" ? triage : preset == "pipes" ? pipes : none;
}

std::string preset_raw_name(const PresetEntry& entry, std::string_view chip) {
  std::string table = preset_chip_for(chip);
  if (table == "GH100") return entry.gh100;
  if (table == "GB100") return entry.gb100;
  if (table == "GB202") return entry.gb202;
  return {};
}

std::string preset_chip_for(std::string_view chip) {
  // GH100 (H100/H200/GH200), GB100 and GB110-style datacenter Blackwell share their tables;
  // GB20x consumer/workstation Blackwell use GB202's.
  if (chip == "GH100") return "GH100";
  if (chip == "GB100" || chip == "GB110") return "GB100";
  if (chip == "GB202" || chip == "GB203" || chip == "GB205" || chip == "GB206" || chip == "GB207") {
    return "GB202";
  }
  return {};
}

std::vector<std::string> parse_metric_list(std::string_view text) {
  std::vector<std::string> names;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(pos, comma - pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) throw Error("empty metric name in '" + std::string(text) + "'", kExitUsage);
    if (!std::all_of(item.begin(), item.end(), valid_metric_char) || item.front() == '.' || item.back() == '.') {
      throw Error(
          "invalid metric name '" + std::string(item) + "' (letters, digits, '_' and '.' only; see --list-metrics)",
          kExitUsage);
    }
    names.emplace_back(item);
    pos = comma + 1;
  }
  return names;
}

std::vector<SampledMetric> resolve_metrics(std::string_view chip, std::string_view preset,
                                           const std::vector<std::string>& raw_metrics) {
  std::vector<SampledMetric> out;
  if (!raw_metrics.empty()) {
    std::set<std::string> seen;
    for (const auto& name : raw_metrics) {
      parse_metric_list(name);  // validates the characters
      if (!seen.insert(name).second) throw Error("metric '" + name + "' given twice", kExitUsage);
      out.push_back({name, name});
    }
    return out;
  }
  const auto& entries = preset_entries(preset);
  if (entries.empty()) {
    std::string known;
    for (const auto& p : preset_names()) known += (known.empty() ? "" : ", ") + p;
    throw Error("unknown preset '" + std::string(preset) + "' (known: " + known + ")", kExitUsage);
  }
  if (preset_chip_for(chip).empty()) {
    throw Error("no '" + std::string(preset) + "' preset for chip " + std::string(chip) +
                    " (presets exist for GH100, GB100, GB202): pass raw metric names with "
                    "--metrics (see cuprobe sample --list-metrics)",
                kExitCountersUnavailable);
  }
  for (const auto& entry : entries) {
    std::string raw = preset_raw_name(entry, chip);
    if (!raw.empty()) out.push_back({entry.column, raw});
  }
  return out;
}

}  // namespace cuprobe
