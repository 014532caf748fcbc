// `cuprobe bench`'s plan: its flags checked and resolved into what the run
// needs, before any request is sent (a bad flag or file fails here, exit 2).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/bench_backend.h"
#include "cli/bench_flags.h"
#include "cli/counter_flags.h"
#include "load/bench_metrics.h"
#include "load/load_runner.h"
#include "load/profiler_control.h"
#include "load/prompt_source.h"
#include "load/request_builder.h"
#include "load/workload_factory.h"
#include "net/http_client_config.h"
#include "net/http_url.h"
#include "report/bench_result.h"

namespace cuprobe {

// One result file: --result-file, vLLM's --save-result/--append-result, SGLang's --output-file.
struct ResultTarget {
  std::string path;     // empty: vLLM's default name, made when the result is known (in `dir`)
  std::string dir;      // --result-dir (created)
  std::string format;   // cuprobe, vllm or sglang
  bool append = false;  // added to the file's text (SGLang's lines always are)
};

struct BenchOutputs {
  bool json = false, csv = false;
  std::string save_requests;
  std::vector<ResultTarget> results;
  PeerResultOptions peer;           // --save-detailed, --percentile-metrics
  std::vector<std::string> inputs;  // the files read (datasets, tokenizer): never written over
};

struct BenchPlan {
  Peer peer = Peer::kNone;  // whose rules apply where vLLM and SGLang differ
  std::string backend;      // --backend as given
  HttpUrl server;
  HttpClientConfig client;
  std::string endpoint;
  RequestTemplate request;             // its model is the first of /v1/models when --model is not given
  std::vector<double> rates;           // one run each; {0}: the closed loop, or a ramp
  LoadOptions load;                    // the first run's
  std::optional<int> max_concurrency;  // the cap as the peers write it (none: every request at once, or uncapped)
  std::string arrival, ramp_up;        // as given
  std::int64_t run_deadline = 0;       // monotonic ns: --timeout bounds everything, the readiness wait included
  std::optional<std::int64_t> wait_timeout_ns;  // none: --no-wait
  std::string timeout_text, wait_timeout_text;
  MetricOptions metrics;
  double max_error_rate = 0;
  std::optional<WorkloadPlan> workload;  // --dataset-name
  std::string dataset_name;
  std::unique_ptr<PromptSource> prompts;  // without --dataset-name: the synthetic prompts or --dataset
  std::optional<std::int64_t> input_len;  // the synthetic prompts' length, when they are used
  std::int64_t output_len = 0;
  std::optional<ProfileSettings> profile;
  std::optional<CounterPlan> counters;  // --sample
  bool sample_optional = false, server_metrics = false, quiet = false;
  std::string label, model_id;     // model_id: --model where --served-model-name names the one sent
  std::string tokenizer;           // --tokenizer as given ("": none)
  std::vector<std::string> notes;  // said once, kept in the report
  std::vector<std::pair<std::string, std::string>> metadata;
  BenchOutputs outputs;
};

// `app` is the parsed command line (which workload flags were given).
BenchPlan plan_bench(const BenchFlags& flags, const CLI::App& app);

}  // namespace cuprobe
