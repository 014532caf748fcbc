#include "cli/workload_flags.h"

#include "common/error.h"
#include "common/units.h"

namespace cuprobe {
namespace {

constexpr const char* kGroup = "Workload (with --dataset-name)";

}  // namespace

void add_workload_flags(CLI::App& app, WorkloadSpec& f) {
  app.add_option("--dataset-name", f.dataset_name, "workload: " + dataset_names() + " (vLLM/SGLang --dataset-name)");
  std::size_t before = app.get_options().size();
  CLI::App* g = &app;
  g->add_option("--dataset-path", f.dataset_path,
                "sharegpt: the ShareGPT JSON; custom, jsonl, timed_trace, mooncake: the JSONL; burstgpt: the CSV; "
                "sonnet: a text (default: the bundled Shakespeare sonnets)");
  g->add_option_function<std::string>(
      "--dataset-max-size", [&f](const std::string& size) { f.dataset_max_bytes = parse_size(size); },
      "the largest dataset file read (default 1GiB): a larger file ends with an error naming it");
  g->add_option("--pool-size", f.pool_size,
                "distinct requests the workload holds, cycled when the run sends more (default: as many as are "
                "sent, -n/--num-prompts plus warm-up, or 1000)");
  g->add_option("--random-input-len", f.random.input_len, "random: prompt tokens")->capture_default_str();
  g->add_option("--random-output-len", f.random.output_len,
                "random: max_tokens (default 128, vLLM's; SGLang's 1024 where SGLang's rules apply, as for "
                "--random-range-ratio)");
  g->add_option(
       "--random-range-ratio", f.random.range_ratio,
       "random: lengths uniform in [len*(1-r), len*(1+r)], r in [0, 1) (vLLM's rule); with SGLang's --backend, "
       "--result-format sglang or --output-file: in [max(len*r, 1), len], r in [0, 1] (SGLang's rule)")
      ->capture_default_str();
  g->add_option("--random-prefix-len", f.random.prefix_len,
                "random: tokens of one prefix put before every prompt (vLLM)")
      ->capture_default_str();
  g->add_option("--sharegpt-output-len", f.sharegpt_output_len,
                "sharegpt: max_tokens of every request (default: the reply's length)");
  g->add_option("--gsp-num-groups", f.gsp.groups, "shared-prefix: groups (one system prompt each)")
      ->capture_default_str();
  g->add_option("--gsp-prompts-per-group", f.gsp.prompts_per_group, "shared-prefix: questions per group")
      ->capture_default_str();
  g->add_option("--gsp-system-prompt-len", f.gsp.system_prompt_len, "shared-prefix: system prompt tokens")
      ->capture_default_str();
  g->add_option("--gsp-question-len", f.gsp.question_len, "shared-prefix: question tokens")->capture_default_str();
  g->add_option("--gsp-output-len", f.gsp.output_len, "shared-prefix: max_tokens")->capture_default_str();
  g->add_option("--gsp-range-ratio", f.gsp.range_ratio,
                "shared-prefix: lengths uniform in [len*r, len] (SGLang's rule; 1 = exact)")
      ->capture_default_str();
  g->add_option("--prefix-repetition-prefix-len", f.repetition.prefix_len, "prefix_repetition: prefix tokens")
      ->capture_default_str();
  g->add_option("--prefix-repetition-suffix-len", f.repetition.suffix_len, "prefix_repetition: suffix tokens")
      ->capture_default_str();
  g->add_option("--prefix-repetition-num-prefixes", f.repetition.num_prefixes,
                "prefix_repetition: prefixes, each with (requests sent) / N suffixes")
      ->capture_default_str();
  g->add_option("--prefix-repetition-output-len", f.repetition.output_len, "prefix_repetition: max_tokens")
      ->capture_default_str();
  g->add_option("--custom-output-len", f.custom.output_len,
                "custom: max_tokens of every request; -1: each line's \"output_tokens\"")
      ->capture_default_str();
  g->add_flag("--disable-shuffle", f.disable_shuffle, "custom: take the lines in file order (vLLM)");
  g->add_flag("--no-oversample", f.no_oversample, "custom: do not repeat lines when the file has fewer than needed");
  g->add_option("--sonnet-input-len", f.sonnet.input_len, "sonnet: most prompt tokens")->capture_default_str();
  g->add_option("--sonnet-output-len", f.sonnet.output_len, "sonnet: max_tokens")->capture_default_str();
  g->add_option("--sonnet-prefix-len", f.sonnet.prefix_len, "sonnet: tokens of the prefix all prompts share")
      ->capture_default_str();
  g->add_option("--timed-trace-sec-multiplier", f.trace_sec_multiplier,
                "timed_trace: seconds per timestamp unit (0.001 for milliseconds; default 1)");
  g->add_option("--timed-trace-chunk-hash-size", f.trace_chunk,
                "timed_trace, mooncake: prompt tokens per hash id (default 16; mooncake: 512)");
  g->add_option("--timed-trace-label-timestamp", f.trace.timestamp_field, "timed_trace: the timestamp's field")
      ->capture_default_str();
  g->add_option("--timed-trace-label-input-length", f.trace.input_field, "timed_trace: the input length's field")
      ->capture_default_str();
  g->add_option("--timed-trace-label-output-length", f.trace.output_field, "timed_trace: the output length's field")
      ->capture_default_str();
  g->add_option("--timed-trace-label-hash-ids", f.trace.hash_field, "timed_trace: the hash ids' field")
      ->capture_default_str();
  g->add_flag("--self-timed,!--no-self-timed", f.self_timed,
              "timed_trace: send at the trace's times (default), or as --request-rate says");
  g->add_option("--mooncake-slowdown-factor", f.mooncake_slowdown,
                "mooncake: millisecond timestamps stretched by this factor (2 = half the pace; default 1)");
  g->add_flag("--use-trace-timestamps", f.use_trace_timestamps,
              "mooncake: send at the trace's times (else as --request-rate says, as SGLang does)");
  g->add_flag("--multi-turn", f.multi_turn,
              "sharegpt, jsonl: every user turn of a conversation, in order, each with the history before it");
  g->add_option("--token-count", f.token_count,
                "how prompt lengths are counted: auto (the server's /tokenize, else words), server or words")
      ->capture_default_str();
  g->add_option(
      "--tokenizer", f.tokenizer,
      "count prompt lengths with this tokenizer instead of the server: a Hugging Face model id (from the "
      "local cache), a model directory, a tokenizer.json (byte-level BPE) or a SentencePiece tokenizer.model");
  std::vector<CLI::Option*> options = app.get_options();
  for (std::size_t i = before; i < options.size(); ++i) options[i]->group(kGroup);
}

void check_workload_flags_used(const CLI::App& app, const WorkloadSpec& flags) {
  // vLLM's main_async: the flag means something only to timed_trace, and vLLM refuses it elsewhere.
  if (app.get_option("--self-timed")->count() > 0 && flags.dataset_name != "timed_trace")
    throw Error("--self-timed/--no-self-timed is only supported with --dataset-name timed_trace (as vLLM)", kExitUsage);
  if (!flags.dataset_name.empty()) return;
  for (const CLI::Option* o : app.get_options([](const CLI::Option* o) { return o->get_group() == kGroup; })) {
    if (o->count() > 0) throw Error(o->get_name() + " needs --dataset-name", kExitUsage);
  }
}

}  // namespace cuprobe
