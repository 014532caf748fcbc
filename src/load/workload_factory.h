// bench's dataset factory: a workload spec (cli/workload_flags fills it from
// the flags, named as in `vllm bench serve` and SGLang's bench_serving) checked
// and its files read (plan_workload, before the server is waited for: a bad
// file fails at once), then the requests built (build_workload, after, when the
// server's /tokenize can count). --dataset-name is one of random | sharegpt |
// shared-prefix (SGLang's generated-shared-prefix) | prefix_repetition | custom
// | sonnet | burstgpt | timed_trace (SGLang's mooncake) | jsonl.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "load/dataset_burstgpt.h"
#include "load/dataset_custom.h"
#include "load/dataset_file.h"
#include "load/dataset_random.h"
#include "load/dataset_sharegpt.h"
#include "load/dataset_sonnet.h"
#include "load/dataset_trace.h"
#include "load/load_runner.h"
#include "load/token_counter.h"
#include "load/workload.h"
#include "net/http_client_config.h"
#include "net/http_url.h"

namespace cuprobe {

// What the workload flags ask for (cli/workload_flags binds each flag to its field).
struct WorkloadSpec {
  std::string dataset_name, dataset_path, token_count = "auto", tokenizer;
  std::uint64_t dataset_max_bytes = kDefaultDatasetMaxBytes;  // --dataset-max-size (--dataset too)
  RandomSpec random;  // random.rule: whose --random-range-ratio (set by the caller; vLLM's by default)
  SharedPrefixSpec gsp;
  PrefixRepetitionSpec repetition;
  CustomSpec custom;
  SonnetSpec sonnet;
  TraceSpec trace;
  std::optional<double> trace_sec_multiplier, mooncake_slowdown;
  std::optional<std::int64_t> trace_chunk;
  bool self_timed = true;             // timed_trace: send at the trace's times (vLLM --self-timed)
  bool use_trace_timestamps = false;  // mooncake: the same, as SGLang asks for it
  std::uint64_t pool_size = 0;        // --pool-size: distinct requests the workload holds, cycled (0: as many as sent)
  std::int64_t sharegpt_output_len = 0;
  bool multi_turn = false, disable_shuffle = false, no_oversample = false;
};

// Every --dataset-name, comma-separated (the flag's help).
std::string dataset_names();

// What was read from the flags and the files, before any request.
struct WorkloadPlan {
  WorkloadSpec spec;
  std::optional<ShareGptFile> sharegpt;
  std::vector<Prompt> jsonl;
  std::vector<CustomLine> custom;
  std::optional<BurstGptFile> burstgpt;
  std::vector<std::string> sonnet_lines;
  std::vector<TraceRequest> trace;
  std::shared_ptr<TokenCounter> tokenizer;  // --tokenizer, read before the wait
};

// nullopt when --dataset-name is not given (the legacy --input-len / --dataset
// prompts). `planned_requests` sizes the pool (--pool-size wins); 0 = unknown.
// Throws cuprobe::Error (exit 2) for bad flags, InputError for a bad file.
std::optional<WorkloadPlan> plan_workload(const WorkloadSpec& spec, std::uint64_t planned_requests,
                                          std::int64_t default_output_len, std::uint64_t seed);

struct BuiltWorkload {
  std::unique_ptr<Workload> workload;
  nlohmann::ordered_json settings;        // "dataset" in the report's settings
  std::string note;                       // why lengths are in words, when the server could not count
  std::vector<std::int64_t> arrivals_ns;  // a replayed trace's send times (empty: the load's own arrivals)
};

BuiltWorkload build_workload(const WorkloadPlan& plan, const HttpUrl& server, const HttpClientConfig& client,
                             const std::string& model);

// Hands a replayed trace's send times to the load (nothing for other workloads).
void apply_workload_arrivals(const BuiltWorkload& built, LoadOptions& options);

}  // namespace cuprobe
