// The "settings" block of a bench report: the load as it was asked for, one
// object per run (a --rate sweep changes "mode", "rate" and "arrival").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "load/load_runner.h"

namespace cuprobe {

struct BenchSettings {
  std::string url, endpoint, model, prompts;
  std::string backend, model_id;       // --backend; --model where --served-model-name is sent ("": none)
  std::string tokenizer;               // --tokenizer as given ("": none)
  std::optional<int> max_concurrency;  // the cap as the peers write it (none: every request at once, or no cap)
  nlohmann::ordered_json sampling = nlohmann::ordered_json::object();  // top_p, top_k, ... as sent
  std::string arrival;                                                 // as given: poisson or constant
  std::string ramp_up;                                                 // as given; empty without a ramp
  std::optional<std::int64_t> input_len;          // the synthetic prompts' length, when they are used
  std::optional<nlohmann::ordered_json> dataset;  // the workload's settings (--dataset-name)
  std::int64_t output_len = 0;
  bool ignore_eos = true, stream_options = true;  // as sent (after the field probe)
  std::optional<double> temperature;              // as sent; none: the server's default
  std::string request_body;                       // whose request bodies: cuprobe, vllm or sglang
  double max_error_rate = 0;
  std::vector<std::string> fields_dropped;
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  std::vector<double> percentiles;
  bool server_metrics = false;
};

// `load`: the run's options (its rate), with the run timeout as planned.
nlohmann::ordered_json bench_settings_json(const BenchSettings& s, const LoadOptions& load);

}  // namespace cuprobe
