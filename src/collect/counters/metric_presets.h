// Metric presets for PM sampling: a stable column name per quantity, mapped to
// the raw CUPTI metric name on each chip (names differ between Hopper and
// Blackwell, and some exist only with a "TPC.TriageCompute." style prefix).
// A quantity the chip does not expose is left out of that chip's columns.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cuprobe {

struct SampledMetric {
  std::string column;  // stable output name ("tensor_active_pct") or the raw name for --metrics
  std::string raw;     // CUPTI metric name evaluated for this column
};

struct PresetEntry {
  std::string column;
  std::string description;
  std::string gh100, gb100, gb202;  // raw names; empty = the chip does not expose it
};

const std::vector<std::string>& preset_names();                           // "triage", ...
const std::vector<std::string>& preset_chips();                           // chips with presets: GH100, GB100, GB202
const std::vector<PresetEntry>& preset_entries(std::string_view preset);  // empty for unknown preset

// Raw metric of one entry for a chip; empty when the chip does not expose it.
std::string preset_raw_name(const PresetEntry& entry, std::string_view chip);

// The chip a preset table applies to: GH100 for "GH100"/"GH200"-style names, etc.
// Empty when cuprobe has no table for the chip.
std::string preset_chip_for(std::string_view chip);

// Columns to sample: `raw_metrics` when non-empty (column = raw name), else the preset for
// the chip. Throws cuprobe::Error: exit 2 for an unknown preset or a malformed/duplicate raw
// name, exit 3 when the chip has no preset table (use --metrics).
std::vector<SampledMetric> resolve_metrics(std::string_view chip, std::string_view preset,
                                           const std::vector<std::string>& raw_metrics);

// Splits "a,b,c" (spaces around names allowed); throws exit 2 on empty names or bad characters.
std::vector<std::string> parse_metric_list(std::string_view text);

}  // namespace cuprobe
