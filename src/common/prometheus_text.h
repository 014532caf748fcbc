// A reader of the Prometheus text exposition format (version 0.0.4; the
// OpenMetrics text form reads too: its "# EOF" and "# UNIT" lines are accepted).
// Used to read dcgm-exporter's /metrics (cuprobe's --source dcgm=URL) and to
// check what cuprobe's own exporter serves; kept here so any layer that reads
// /metrics pages (servers' metrics in bench) can share it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuprobe {

struct PrometheusSample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;  // in the order written, values unescaped
  double value = 0;
  std::optional<std::int64_t> timestamp_ms;
  // The value of label `key`, or nullptr.
  const std::string* label(std::string_view key) const;
};

struct PrometheusPage {
  std::vector<PrometheusSample> samples;
  std::map<std::string, std::string> types;  // family → "gauge", "counter", ... from # TYPE
  std::map<std::string, std::string> help;   // family → text from # HELP (unescaped)
  std::vector<std::string> errors;           // read_prometheus_text: "line N: reason" of each line skipped
};

// Throws cuprobe::Error "SOURCE: line N: reason" on a malformed line (bad name, unterminated
// label value, missing or unparsable value, a second TYPE for one family).
PrometheusPage parse_prometheus_text(std::string_view text, const std::string& source);

// The tolerant reading (servers' /metrics in bench): a line that cannot be read
// is skipped and listed in `errors`; one odd line never costs the rest.
PrometheusPage read_prometheus_text(std::string_view text);

// The family a sample belongs to and its type: "x_bucket" of histogram "x" is
// ("x", "histogram"); a counter's "x_total" is found under "x" or "x_total".
// Samples of no declared family are ("name", "untyped").
std::pair<std::string, std::string> prometheus_family(const PrometheusPage& page, const std::string& sample_name);

// Labels as Prometheus writes them: {a="1",b="x"}; "" when there are none.
std::string prometheus_labels_text(const std::vector<std::pair<std::string, std::string>>& labels);

// Escapes a label value for the text format (backslash, double quote, newline).
std::string escape_prometheus_label(std::string_view value);

}  // namespace cuprobe
