// bench's workload flags, named as in `vllm bench serve` and SGLang's
// bench_serving: --dataset-name random | sharegpt | shared-prefix (SGLang's
// generated-shared-prefix) | prefix_repetition | custom | sonnet | burstgpt |
// timed_trace (SGLang's mooncake) | jsonl, with --dataset-path and each
// dataset's own options (--random-*, --gsp-*, --prefix-repetition-*,
// --custom-output-len, --sonnet-*, --timed-trace-*, --mooncake-slowdown-factor),
// --pool-size, --multi-turn, and --token-count / --tokenizer (how prompt
// lengths are counted). Each flag fills its field of a WorkloadSpec; load's
// workload factory (load/workload_factory) checks it, reads the files and
// builds the requests.
#pragma once

#include <CLI/CLI.hpp>

#include "load/workload_factory.h"

namespace cuprobe {

void add_workload_flags(CLI::App& app, WorkloadSpec& flags);
// A workload option without --dataset-name is a usage error (it would do nothing).
void check_workload_flags_used(const CLI::App& app, const WorkloadSpec& flags);

}  // namespace cuprobe
