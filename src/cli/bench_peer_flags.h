// Every long flag of the peers' bench parsers (vLLM's `vllm bench serve`:
// vllm/benchmarks/serve.py add_cli_args and vllm/benchmarks/datasets/arg_utils.py
// add_dataset_parser; SGLang's bench_serving: python/sglang/benchmark/serving.py
// cli_main, commit 00f9ec47) and what bench does with the ones it does not declare
// itself: a harmless no-op with one note, or a refusal with the reason. The lists
// also bound the peers' abbreviations: argparse resolves a prefix against the
// peer's own flags, so bench_peer_args expands one only to a flag of that peer.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/bench_backend.h"

namespace cuprobe {

// The long flags of vLLM's, or SGLang's, bench parser ("--num-prompts", ...).
const std::vector<std::string>& peer_flag_names(Peer peer);

// Declares the peers' flags bench has no meaning for, hidden from --help
// (docs/bench.md lists them), values taken as the peers take them.
void declare_peer_only_flags(CLI::App& app);

// The notes for the no-ops given; throws cuprobe::Error (usage) naming the first
// refused one and why.
std::vector<std::string> check_peer_only_flags(const CLI::App& app);

}  // namespace cuprobe
