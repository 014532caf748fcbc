#include "collect/counters/metric_presets.h"

#include <algorithm>
#include <set>

#include "collect/counters/counter_columns.h"
#include "common/error.h"

namespace cuprobe {
namespace {

// The preset's columns, in table order (collect/counters/counter_columns.h says why
// each preset holds what it holds).
std::vector<PresetEntry> entries_of(unsigned preset) {
  std::vector<PresetEntry> entries;
  for (const CounterColumn& c : kCounterColumns) {
    if (!(c.presets & preset)) continue;
    entries.push_back({std::string(c.name), std::string(c.description), std::string(c.cupti.gh100),
                       std::string(c.cupti.gb100), std::string(c.cupti.gb202)});
  }
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
  static const std::vector<PresetEntry> triage = entries_of(kPresetTriage);
  static const std::vector<PresetEntry> pipes = entries_of(kPresetPipes);
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
