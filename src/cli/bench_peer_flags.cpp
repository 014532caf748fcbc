#include "cli/bench_peer_flags.h"

#include "common/error.h"

namespace cuprobe {
namespace {

// vLLM: serve.py add_cli_args (with --trust-remote-code, which main_async reads) and
// datasets/arg_utils.py add_dataset_parser.
const std::vector<std::string> kVllmFlags = {"--seed",
                                             "--num-prompts",
                                             "--dataset-name",
                                             "--no-stream",
                                             "--dataset-path",
                                             "--no-oversample",
                                             "--skip-chat-template",
                                             "--custom-skip-chat-template",
                                             "--disable-shuffle",
                                             "--custom-output-len",
                                             "--spec-bench-output-len",
                                             "--spec-bench-category",
                                             "--sonnet-input-len",
                                             "--sonnet-output-len",
                                             "--sonnet-prefix-len",
                                             "--sharegpt-output-len",
                                             "--blazedit-min-distance",
                                             "--blazedit-max-distance",
                                             "--random-input-len",
                                             "--random-output-len",
                                             "--random-range-ratio",
                                             "--random-prefix-len",
                                             "--random-batch-size",
                                             "--no-reranker",
                                             "--random-mm-base-items-per-request",
                                             "--random-mm-num-mm-items-range-ratio",
                                             "--random-mm-limit-mm-per-prompt",
                                             "--random-mm-bucket-config",
                                             "--hf-subset",
                                             "--hf-split",
                                             "--hf-name",
                                             "--hf-output-len",
                                             "--prefix-repetition-prefix-len",
                                             "--prefix-repetition-suffix-len",
                                             "--prefix-repetition-num-prefixes",
                                             "--prefix-repetition-output-len",
                                             "--label",
                                             "--backend",
                                             "--base-url",
                                             "--host",
                                             "--port",
                                             "--endpoint",
                                             "--header",
                                             "--max-concurrency",
                                             "--model",
                                             "--input-len",
                                             "--output-len",
                                             "--tokenizer",
                                             "--tokenizer-mode",
                                             "--use-beam-search",
                                             "--logprobs",
                                             "--request-rate",
                                             "--burstiness",
                                             "--probe-request-rate",
                                             "--disable-tqdm",
                                             "--num-warmups",
                                             "--profile",
                                             "--save-result",
                                             "--save-detailed",
                                             "--append-result",
                                             "--metadata",
                                             "--result-dir",
                                             "--result-filename",
                                             "--ignore-eos",
                                             "--self-timed",
                                             "--no-self-timed",
                                             "--percentile-metrics",
                                             "--metric-percentiles",
                                             "--goodput",
                                             "--request-id-prefix",
                                             "--top-p",
                                             "--top-k",
                                             "--min-p",
                                             "--temperature",
                                             "--frequency-penalty",
                                             "--presence-penalty",
                                             "--repetition-penalty",
                                             "--served-model-name",
                                             "--lora-modules",
                                             "--lora-assignment",
                                             "--ramp-up-strategy",
                                             "--ramp-up-start-rps",
                                             "--ramp-up-end-rps",
                                             "--ready-check-timeout-sec",
                                             "--chat-template-kwargs",
                                             "--extra-body",
                                             "--skip-tokenizer-init",
                                             "--insecure",
                                             "--plot-timeline",
                                             "--timeline-itl-thresholds",
                                             "--plot-dataset-stats",
                                             "--trust-remote-code"};

// SGLang: serving.py cli_main (commit 00f9ec47).
const std::vector<std::string> kSglangFlags = {"--backend",
                                               "--base-url",
                                               "--host",
                                               "--port",
                                               "--ready-check-timeout-sec",
                                               "--dataset-name",
                                               "--dataset-path",
                                               "--dataset-offset",
                                               "--agentic-max-turns",
                                               "--speed-bench-category",
                                               "--speed-bench-output-len",
                                               "--model",
                                               "--served-model-name",
                                               "--tokenizer",
                                               "--num-prompts",
                                               "--sharegpt-output-len",
                                               "--sharegpt-context-len",
                                               "--random-input-len",
                                               "--random-output-len",
                                               "--random-range-ratio",
                                               "--image-count",
                                               "--image-resolution",
                                               "--random-image-count",
                                               "--image-format",
                                               "--image-content",
                                               "--request-rate",
                                               "--use-trace-timestamps",
                                               "--max-concurrency",
                                               "--output-file",
                                               "--output-details",
                                               "--print-requests",
                                               "--disable-tqdm",
                                               "--disable-stream",
                                               "--return-logprob",
                                               "--top-logprobs-num",
                                               "--token-ids-logprob",
                                               "--logprob-start-len",
                                               "--return-routed-experts",
                                               "--cache-report",
                                               "--seed",
                                               "--disable-ignore-eos",
                                               "--temperature",
                                               "--top-p",
                                               "--extra-request-body",
                                               "--apply-chat-template",
                                               "--profile",
                                               "--plot-throughput",
                                               "--profile-activities",
                                               "--profile-start-step",
                                               "--profile-steps",
                                               "--profile-num-steps",
                                               "--profile-by-stage",
                                               "--profile-stages",
                                               "--profile-output-dir",
                                               "--profile-prefix",
                                               "--lora-name",
                                               "--lora-request-distribution",
                                               "--lora-zipf-alpha",
                                               "--prompt-suffix",
                                               "--pd-separated",
                                               "--profile-prefill-url",
                                               "--profile-decode-url",
                                               "--flush-cache",
                                               "--flush-cache-timeout",
                                               "--warmup-requests",
                                               "--tokenize-prompt",
                                               "--gsp-num-groups",
                                               "--gsp-prompts-per-group",
                                               "--gsp-system-prompt-len",
                                               "--gsp-question-len",
                                               "--gsp-output-len",
                                               "--gsp-range-ratio",
                                               "--gsp-fast-prepare",
                                               "--gsp-send-routing-key",
                                               "--gsp-num-turns",
                                               "--gsp-ordered",
                                               "--gsp-group-distribution",
                                               "--gsp-zipf-alpha",
                                               "--mooncake-slowdown-factor",
                                               "--mooncake-num-rounds",
                                               "--mooncake-workload",
                                               "--fake-prefill",
                                               "--tag",
                                               "--header"};

enum class Takes { kNothing, kOne, kSeveral };  // store_true; one value; nargs "+" or "*"

struct PeerOnly {
  const char* name;
  Takes takes;
  bool refused;
  const char* why;  // the note (no-op) or the reason (refused)
};

constexpr const char* kNoHub = "Hugging Face datasets are not offered (bench reads local files)";
constexpr const char* kNoMm = "multimodal workloads are not offered (bench sends text)";
constexpr const char* kNoLora = "LoRA adapters are not picked per request; name the adapter with --model";
constexpr const char* kNoLogprobs =
    "logprobs are not asked for (they change what the server computes); send them with --extra-body";
constexpr const char* kNoPd = "profiling prefill and decode workers apart (PD disaggregation) is not offered";

const PeerOnly kPeerOnly[] = {
    // vLLM
    {"--no-stream", Takes::kNothing, false, "datasets are read from local files, never streamed"},
    {"--skip-chat-template", Takes::kNothing, false, "bench applies no chat template to prompts: nothing to skip"},
    // vLLM before the dataset flags were renamed (its docs' custom-dataset examples still paste it).
    {"--custom-skip-chat-template", Takes::kNothing, false,
     "bench applies no chat template to prompts: nothing to skip"},
    {"--trust-remote-code", Takes::kNothing, false, "bench loads no model code (its tokenizer reads plain files)"},
    {"--tokenizer-mode", Takes::kOne, false, "bench reads --tokenizer's files itself: there is no mode to choose"},
    {"--skip-tokenizer-init", Takes::kNothing, false, "bench loads a tokenizer only for --tokenizer"},
    {"--use-beam-search", Takes::kNothing, false, "vLLM's bench declares it and sends nothing for it either"},
    {"--chat-template-kwargs", Takes::kOne, false, "bench renders no chat template client-side"},
    {"--plot-timeline", Takes::kNothing, false, "no plot is drawn (--save-requests keeps every request's times)"},
    {"--timeline-itl-thresholds", Takes::kOne, false, "no plot is drawn"},
    {"--plot-dataset-stats", Takes::kNothing, false, "no plot is drawn"},
    {"--probe-request-rate", Takes::kOne, true, "probe requests beside the load are not offered"},
    {"--lora-modules", Takes::kSeveral, true, kNoLora},
    {"--lora-assignment", Takes::kOne, true, kNoLora},
    {"--logprobs", Takes::kOne, true, kNoLogprobs},
    {"--spec-bench-output-len", Takes::kOne, true, "the spec_bench dataset is not offered"},
    {"--spec-bench-category", Takes::kOne, true, "the spec_bench dataset is not offered"},
    {"--blazedit-min-distance", Takes::kOne, true, kNoHub},
    {"--blazedit-max-distance", Takes::kOne, true, kNoHub},
    {"--random-batch-size", Takes::kOne, true, "embedding benchmarks are not offered"},
    {"--no-reranker", Takes::kNothing, true, "reranker benchmarks are not offered"},
    {"--random-mm-base-items-per-request", Takes::kOne, true, kNoMm},
    {"--random-mm-num-mm-items-range-ratio", Takes::kOne, true, kNoMm},
    {"--random-mm-limit-mm-per-prompt", Takes::kOne, true, kNoMm},
    {"--random-mm-bucket-config", Takes::kOne, true, kNoMm},
    {"--hf-subset", Takes::kOne, true, kNoHub},
    {"--hf-split", Takes::kOne, true, kNoHub},
    {"--hf-name", Takes::kOne, true, kNoHub},
    {"--hf-output-len", Takes::kOne, true, kNoHub},
    // SGLang
    {"--print-requests", Takes::kNothing, false, "--save-requests writes every request instead"},
    {"--plot-throughput", Takes::kNothing, false, "no plot is drawn"},
    {"--gsp-fast-prepare", Takes::kNothing, false, "bench computes no dataset statistics to skip"},
    {"--dataset-offset", Takes::kOne, true, "the agentic-trace dataset is not offered"},
    {"--agentic-max-turns", Takes::kOne, true, "the agentic-trace dataset is not offered"},
    {"--speed-bench-category", Takes::kOne, true, "the speed-bench dataset is not offered"},
    {"--speed-bench-output-len", Takes::kOne, true, "the speed-bench dataset is not offered"},
    {"--sharegpt-context-len", Takes::kOne, true,
     "dropping ShareGPT conversations longer than a context is not offered"},
    {"--image-count", Takes::kOne, true, kNoMm},
    {"--image-resolution", Takes::kOne, true, kNoMm},
    {"--random-image-count", Takes::kNothing, true, kNoMm},
    {"--image-format", Takes::kOne, true, kNoMm},
    {"--image-content", Takes::kOne, true, kNoMm},
    {"--return-logprob", Takes::kNothing, true, kNoLogprobs},
    {"--top-logprobs-num", Takes::kOne, true, kNoLogprobs},
    {"--token-ids-logprob", Takes::kSeveral, true, kNoLogprobs},
    {"--logprob-start-len", Takes::kOne, true, kNoLogprobs},
    {"--return-routed-experts", Takes::kNothing, true, "routed experts are not asked for; use --extra-body"},
    {"--cache-report", Takes::kNothing, true,
     "per-request cache hits are not collected (--server-metrics reports the server's counters)"},
    {"--profile-activities", Takes::kSeveral, true, "the profiler runs with the server's default activities"},
    {"--profile-start-step", Takes::kOne, true, "the profiler starts in the steady window, not at a step"},
    {"--profile-num-steps", Takes::kOne, true, "use --profile-steps (SGLang's num_steps)"},
    {"--profile-by-stage", Takes::kNothing, true, "profiling by stage is not offered"},
    {"--profile-stages", Takes::kSeveral, true, "profiling by stage is not offered"},
    {"--profile-prefix", Takes::kOne, true, "trace file prefixes are not offered (--profile-dir names the folder)"},
    {"--lora-name", Takes::kSeveral, true, kNoLora},
    {"--lora-request-distribution", Takes::kOne, true, kNoLora},
    {"--lora-zipf-alpha", Takes::kOne, true, kNoLora},
    {"--prompt-suffix", Takes::kOne, true, "prompt suffixes are not offered"},
    {"--pd-separated", Takes::kNothing, true, kNoPd},
    {"--profile-prefill-url", Takes::kSeveral, true, kNoPd},
    {"--profile-decode-url", Takes::kSeveral, true, kNoPd},
    {"--flush-cache", Takes::kNothing, true, "bench does not flush the server's cache (POST /flush_cache yourself)"},
    {"--flush-cache-timeout", Takes::kOne, true, "bench does not flush the server's cache"},
    {"--tokenize-prompt", Takes::kNothing, true, "prompts are sent as text, not token ids"},
    {"--gsp-send-routing-key", Takes::kNothing, true, "routing-key headers are not sent"},
    {"--gsp-num-turns", Takes::kOne, true, "multi-turn generated-shared-prefix conversations are not offered"},
    {"--gsp-ordered", Takes::kNothing, true, "the generated-shared-prefix order is not offered"},
    {"--gsp-group-distribution", Takes::kOne, true, "generated-shared-prefix groups are uniform here"},
    {"--gsp-zipf-alpha", Takes::kOne, true, "generated-shared-prefix groups are uniform here"},
    {"--mooncake-num-rounds", Takes::kOne, true, "multi-round mooncake sessions are not offered"},
    {"--mooncake-workload", Takes::kOne, true, "mooncake workloads other than the trace's are not offered"},
    {"--fake-prefill", Takes::kNothing, true, "decode-only benchmarking is not offered"},
};

}  // namespace

const std::vector<std::string>& peer_flag_names(Peer peer) { return peer == Peer::kSglang ? kSglangFlags : kVllmFlags; }

void declare_peer_only_flags(CLI::App& app) {
  // Hidden from --help (group ""): docs/bench.md lists them, each with its note or reason.
  for (const PeerOnly& f : kPeerOnly) {
    std::string help = std::string(f.refused ? "refused: " : "no effect: ") + f.why;
    CLI::Option* o = nullptr;
    if (f.takes == Takes::kNothing) {
      o = app.add_flag(f.name)->description(help);
    } else {
      o = app.add_option(f.name)->description(help);  // no variable: (name, help) would bind help as one
      if (f.takes == Takes::kSeveral) o->expected(0, -1)->allow_extra_args(true);
    }
    o->group("");
  }
}

std::vector<std::string> check_peer_only_flags(const CLI::App& app) {
  std::vector<std::string> notes;
  for (const PeerOnly& f : kPeerOnly) {
    if (app.count(f.name) == 0) continue;
    if (f.refused) throw Error(std::string(f.name) + ": " + f.why, kExitUsage);
    notes.push_back(std::string(f.name) + ": no effect here (" + f.why + ")");
  }
  return notes;
}

}  // namespace cuprobe
