#include "report/metric_list.h"

#include "collect/counters/metric_presets.h"

namespace cuprobe {

std::string format_metric_list(const std::string& chip, const std::string& preset,
                               const std::vector<MetricInfo>& metrics) {
  std::string out;
  const auto& entries = preset_entries(preset);
  if (!preset_chip_for(chip).empty() && !entries.empty()) {
    out += "# preset '" + preset + "' on " + chip + ": column, raw metric, meaning\n";
    for (const auto& e : entries) {
      std::string raw = preset_raw_name(e, chip);
      out += e.column + "\t" + (raw.empty() ? "(not exposed by this chip)" : raw) + "\t" + e.description + "\n";
    }
  } else {
    out += "# no '" + preset + "' preset for " + chip + " (presets: GH100, GB100, GB202); use --metrics\n";
  }
  out += "# " + std::to_string(metrics.size()) + " base metrics on " + chip +
         ": name, type, unit, description. Sample a counter with a rollup such as .sum, .sum.per_second "
         "or .avg.pct_of_peak_sustained_elapsed; some names need their listed prefix "
         "(e.g. TPC.TriageCompute.)\n";
  for (const auto& m : metrics) out += m.name + "\t" + m.type + "\t" + m.unit + "\t" + m.description + "\n";
  return out;
}

}  // namespace cuprobe
