// bench's workload flags, named as in `vllm bench serve` and SGLang's
// bench_serving: --dataset-name random|sharegpt|shared-prefix|jsonl with
// --dataset-path, --random-*, --gsp-*, --sharegpt-output-len, --num-prompts,
// --multi-turn, and --token-count / --tokenizer (how prompt lengths are counted).
// Files are read before the server is waited for (a bad file fails at once);
// the requests are built after, when the server's /tokenize can count.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "load/dataset_random.h"
#include "load/dataset_sharegpt.h"
#include "load/token_counter.h"
#include "load/workload.h"
#include "net/http_client_config.h"
#include "net/http_url.h"

namespace cuprobe {

struct WorkloadFlags {
  std::string dataset_name, dataset_path, token_count = "auto", tokenizer;
  std::uint64_t dataset_max_bytes = kDefaultDatasetMaxBytes;  // --dataset-max-size (--dataset too)
  RandomSpec random;
  SharedPrefixSpec gsp;
  std::uint64_t num_prompts = 0;
  std::int64_t sharegpt_output_len = 0;
  bool multi_turn = false;
};

void add_workload_flags(CLI::App& app, WorkloadFlags& flags);
// A workload option without --dataset-name is a usage error (it would do nothing).
void check_workload_flags_used(const CLI::App& app, const WorkloadFlags& flags);

// What was read from the flags and the file, before any request.
struct WorkloadPlan {
  WorkloadFlags flags;
  std::optional<ShareGptFile> sharegpt;
  std::vector<Prompt> jsonl;
  std::shared_ptr<TokenCounter> tokenizer;  // --tokenizer, read before the wait
};

// nullopt when --dataset-name is not given (the legacy --input-len / --dataset
// prompts). `planned_requests` sizes the pool (--num-prompts wins); 0 = unknown.
// Throws cuprobe::Error (exit 2) for bad flags, InputError for a bad file.
std::optional<WorkloadPlan> plan_workload(const WorkloadFlags& flags, std::uint64_t planned_requests,
                                          std::int64_t default_output_len, std::uint64_t seed);

struct BuiltWorkload {
  std::unique_ptr<Workload> workload;
  nlohmann::ordered_json settings;  // "dataset" in the report's settings
  std::string note;                 // why lengths are in words, when the server could not count
};

BuiltWorkload build_workload(const WorkloadPlan& plan, const HttpUrl& server, const HttpClientConfig& client,
                             const std::string& model);

}  // namespace cuprobe
