// The Prometheus text exposition format (version 0.0.4, what vLLM's and
// SGLang's /metrics serve): # HELP / # TYPE comments, samples with optional
// labels (escapes \\ \" \n in values) and an optional timestamp, values that
// may be +Inf, -Inf or NaN. A line that cannot be read is skipped and listed
// in `errors` with its line number: one odd line never costs the rest.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuprobe {

struct PromSample {
  std::string name;                                         // as written: "vllm:num_requests_running", "..._bucket"
  std::vector<std::pair<std::string, std::string>> labels;  // in the order written
  double value = 0;
};

struct PromScrape {
  std::vector<PromSample> samples;
  std::map<std::string, std::string> types;  // family → counter, gauge, histogram, summary, untyped
  std::vector<std::string> errors;           // "line N: reason"
};

PromScrape parse_prometheus_text(std::string_view text);

// The family a sample belongs to and its type: "x_bucket" of histogram "x" is
// ("x", "histogram"); a counter's "x_total" is found under "x" or "x_total".
// Samples of no declared family are ("name", "untyped").
std::pair<std::string, std::string> prom_family(const PromScrape& scrape, const std::string& sample_name);

// Labels as Prometheus writes them: {a="1",b="x"}; "" when there are none.
std::string prom_labels_text(const std::vector<std::pair<std::string, std::string>>& labels);

}  // namespace cuprobe
