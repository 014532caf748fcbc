#include "cli/bench_flags.h"

#include "cli/bench_peer_flags.h"
#include "cli/deprecated_option.h"

namespace cuprobe {

namespace {

// The server: cuprobe's URL, or the peers' --base-url/--host/--port with --endpoint or --backend.
void declare_server(CLI::App& app, BenchFlags& f) {
  app.add_option("URL", f.url,
                 "server, e.g. http://127.0.0.1:30000, http://host:8000/v1/chat/completions or https://gateway/v1 "
                 "(or the peers' --base-url, --host/--port; default http://127.0.0.1:8000, SGLang's backends "
                 "their port)");
  app.add_option("--base-url", f.base_url, "server base URL instead of URL (vLLM, SGLang); --endpoint is appended");
  app.add_option("--host", f.host, "server host instead of URL (vLLM's default 127.0.0.1)");
  app.add_option("--port", f.port, "server port instead of URL (vLLM: 8000; SGLang: by --backend, 30000 for sglang)");
  app.add_option("--backend", f.backend,
                 "the peers' request kind: openai, vllm (/v1/completions), openai-chat (chat), sglang "
                 "(/generate), sglang-oai, sglang-oai-chat, vllm-chat, lmdeploy, lmdeploy-chat; it also says whose "
                 "rules apply where vLLM and SGLang differ (sglang*, lmdeploy*, vllm-chat: SGLang's; else vLLM's)");
  app.add_option("--endpoint", f.endpoint,
                 "/v1/completions (default), /v1/chat/completions or /generate (default: --backend's)");
  app.add_option("--model", f.model, "model name for OpenAI endpoints (default: the first of /v1/models)");
  app.add_option("--served-model-name", f.served_model_name,
                 "the model name sent in requests when it differs from --model (vLLM, SGLang)");
}

void declare_load(CLI::App& app, BenchFlags& f) {
  app.add_option("-c,--concurrency,--max-concurrency", f.concurrency,
                 "closed loop: requests in flight (default 1; with --request-rate inf or a peer's --backend/--host/"
                 "--port/--base-url: all requests at once, as vLLM and SGLang); with --rate: the most in flight "
                 "(default: no cap)");
  app.add_option("--rate,--request-rate", f.rate,
                 "open loop: requests per second; inf = no rate (the peers' default); a list (e.g. 2,4,8) runs once "
                 "per rate (a sweep)");
  app.add_option("--arrival", f.arrival, "open-loop arrivals: poisson or constant")->capture_default_str();
  // Given twice (a pasted peer line with an override appended), the last wins, as argparse does.
  app.add_option("-n,--requests,--num-prompts", f.requests,
                 "measured requests to send, as the peers' --num-prompts (default 1000 unless --duration)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--duration", f.duration, "stop sending this long after the first measured request (e.g. 60s)");
  app.add_option("--warmup,--num-warmups,--warmup-requests", f.warmup,
                 "requests (N) or seconds (e.g. 20s) at the start that are not measured (1 where SGLang's rules apply, "
                 "as its --warmup-requests)")
      ->capture_default_str();
  app.add_option("--input-len", f.input_len,
                 "synthetic prompt length in words (~tokens); with --dataset-name: vLLM's general input length "
                 "(--random-input-len, --sonnet-input-len)")
      ->capture_default_str();
  app.add_option("--output-len", f.output_len,
                 "max_tokens of every request; with --dataset-name: vLLM's general output length (every "
                 "dataset's own)")
      ->capture_default_str();
  app.add_option("--dataset", f.dataset,
                 "JSONL prompts: {\"prompt\": ...} or {\"messages\": [...]}, optional max_tokens");
}

void declare_request_body(CLI::App& app, BenchFlags& f) {
  app.add_flag("--no-ignore-eos,--disable-ignore-eos", f.no_ignore_eos,
               "do not ask the server to ignore EOS (outputs may be shorter; SGLang's --disable-ignore-eos)");
  app.add_flag("--ignore-eos", f.ignore_eos,
               "ask the server to ignore EOS (vLLM's flag; vLLM's bodies set it for the random and timed_trace "
               "datasets without it; SGLang's and cuprobe's bodies by default)");
  app.add_flag("--no-stream-options", f.no_stream_options,
               "leave stream_options out of OpenAI request bodies (servers that reject unknown fields with 400/422); "
               "output tokens are then counted from the stream");
  app.add_flag("--disable-stream", f.disable_stream,
               "SGLang's non-streaming mode: not offered (bench measures streams); refused with a reason");
  app.add_flag("--apply-chat-template", f.apply_chat_template,
               "SGLang's client-side chat template: cuprobe renders none; send to a chat endpoint instead "
               "(accepted, with a note)");
  SamplingFlags& s = f.sampling;
  const std::string g = "Sampling (sent in every request body; not sent when not given)";
  app.add_option("--temperature", s.temperature,
                 "sampling temperature (not sent when not given, as vLLM: the server's default; SGLang's "
                 "bodies carry 0.0)")
      ->group(g);
  app.add_option("--top-p", s.top_p, "top_p")->group(g);
  app.add_option("--top-k", s.top_k, "top_k")->group(g);
  app.add_option("--min-p", s.min_p, "min_p")->group(g);
  app.add_option("--frequency-penalty", s.frequency_penalty, "frequency_penalty")->group(g);
  app.add_option("--presence-penalty", s.presence_penalty, "presence_penalty")->group(g);
  app.add_option("--repetition-penalty", s.repetition_penalty, "repetition_penalty")->group(g);
  app.add_option("--extra-body,--extra-request-body", f.extra_body,
                 "JSON object merged into every request body (wins over the sampling options)");
  app.add_option("--request-id-prefix", f.request_id_prefix,
                 "send x-request-id: PREFIX<index> with every request (vLLM's header)");
}

void declare_bounds(CLI::App& app, BenchFlags& f) {
  app.add_option("--seed", f.seed, "seed for prompts and arrivals")->capture_default_str();
  app.add_option("--request-timeout", f.request_timeout, "a request still running after this fails with 'timeout'")
      ->capture_default_str();
  app.add_option("--timeout", f.timeout, "bound on the whole run; in-flight requests are then cancelled (exit 1)")
      ->capture_default_str();
  app.add_option("--max-error-rate", f.max_error_rate, "fraction of failed requests tolerated (else exit 4)")
      ->capture_default_str();
  app.add_flag("--no-wait", f.no_wait, "do not wait for the server to be ready first");
  app.add_flag("--no-keep-alive", f.no_keep_alive,
               "a new connection (and TLS handshake) for every request, to measure cold connections");
  app.add_option("--wait-timeout", f.wait_timeout, "how long to wait for readiness (exit 1)")->capture_default_str();
  app.add_option("--ready-check-timeout-sec", f.ready_check_timeout_sec,
                 "the peers' readiness bound in seconds; 0 = do not wait (as --no-wait)");
  app.add_flag("--disable-tqdm", f.disable_tqdm,
               "the peers' progress bar: no effect, with a note (-q silences progress)");
}

void declare_profile_and_counters(CLI::App& app, BenchFlags& f) {
  app.add_option("--profile", f.profile,
                 "start/stop the server's torch profiler in the steady window: sglang|vllm; alone (the peers' "
                 "flag): the kind --backend names");
  app.add_option("--profile-dir,--profile-output-dir", f.profile_dir,
                 "SGLang output_dir for the traces (on the server host; SGLang's --profile-output-dir)");
  app.add_option("--profile-steps", f.profile_steps, "SGLang num_steps: the server stops profiling by itself");
  app.add_flag("--sample", f.sample, "sample device counters over the steady window (needs a GPU: exit 3 otherwise)");
  app.add_flag("--sample-optional", f.sample_optional, "with --sample: run without counters when they are unavailable");
  add_deprecated_alias(
      app, add_interval_flag(app, f.counters, "with --sample: counter sample interval")->capture_default_str(),
      "--sample-interval");
  add_deprecated_alias(
      app, add_preset_flag(app, f.counters, "with --sample: counter preset, triage or pipes")->capture_default_str(),
      "--sample-preset");
  add_gpu_flag(app, f.counters, "with --sample: GPUs to sample, all or indices like 0,1")->capture_default_str();
}

// Arrivals, SLOs, server metrics (issue 13; vLLM's and SGLang's names as aliases).
void declare_arrivals(CLI::App& app, BenchFlags& f) {
  app.add_option("--burstiness", f.burstiness,
                 "open loop: gamma shape of the gaps between arrivals (1 = Poisson; <1 burstier; vLLM's)")
      ->capture_default_str();
  app.add_option("--ramp-up,--ramp-up-strategy", f.ramp_up,
                 "open loop: ramp the rate linear|exponential from --ramp-up-start-rps to --ramp-up-end-rps over -n "
                 "requests (instead of --rate)");
  app.add_option("--ramp-up-start-rps", f.ramp_start_rps, "with --ramp-up: the first request's rate");
  app.add_option("--ramp-up-end-rps", f.ramp_end_rps, "with --ramp-up: the last request's rate");
  app.add_option("--goodput", f.goodput,
                 "SLOs in ms, e.g. ttft:200 tpot:50 e2e:2000 (as vLLM, one quoted value, or repeated); a request is "
                 "good when it meets every one (vLLM's goodput)")
      ->allow_extra_args(false);
  app.add_option("--percentiles,--metric-percentiles", f.percentiles,
                 "latency percentiles to report, e.g. 50,90,95,99,99.9 (vLLM's result file: only these, default "
                 "vLLM's 99)")
      ->capture_default_str();
  app.add_option("--percentile-metrics", f.percentile_metrics,
                 "--result-format vllm: the metrics with statistics, of ttft, tpot, itl, e2el, client_queue_time, "
                 "e2el_including_client_queue (default vLLM's ttft,tpot,itl; the last two under --max-concurrency, "
                 "as vLLM)");
  app.add_flag("--server-metrics", f.server_metrics,
               "scrape the server's /metrics (vllm:, sglang:) at the steady window's start and end and report them");
  add_source_flag(app, f.counters, "with --sample: ");
}

// Results: cuprobe's --result-file, vLLM's --save-result family, SGLang's --output-file.
void declare_results(CLI::App& app, BenchFlags& f) {
  app.add_option("--result-file", f.result_file,
                 "write the result to FILE in --result-format (default cuprobe); --save-result FILE is its old "
                 "spelling");
  app.add_flag("--save-result", f.save_result,
               "vLLM's: write the result to --result-dir/--result-filename (default vLLM's "
               "LABEL-RATEqps[-concurrencyC]-MODEL-DATE.json) in --result-format (default vllm)");
  app.add_option("--result-dir", f.result_dir, "with --save-result: the directory (created; default: here)");
  app.add_option("--result-filename", f.result_filename, "with --save-result: the file name");
  app.add_flag("--append-result", f.append_result,
               "vLLM's: append the result to the file (a new line per result) instead of replacing it; implies "
               "--save-result");
  app.add_flag("--save-detailed,--output-details", f.save_detailed,
               "the peers' per-request lists in their result: input_lens, output_lens, ttfts, itls, errors (vLLM's: "
               "start_times and generated_texts too)");
  app.add_flag("--result-identity", f.result_identity,
               "add cuprobe's identity (version, host, GPUs, start time) to vLLM's result and SGLang's line as the key "
               "\"cuprobe\" (a key neither peer writes)");
  app.add_option("--output-file", f.output_file,
                 "SGLang's: append the result as one JSON line to FILE in --result-format (default sglang)");
  app.add_option("--result-format", f.result_format,
                 "cuprobe (the --json report), vllm (vllm bench serve's JSON) or sglang (bench_serving's JSONL "
                 "line); it also says whose rules apply where vLLM and SGLang differ")
      ->check(CLI::IsMember({"cuprobe", "vllm", "sglang"}));
  app.add_flag("--csv", f.csv, "print one CSV row per rate (the whole run's figures) instead of the text report");
  app.add_option("--label,--tag", f.label, "a name for this run, kept in every result (SGLang's --tag)");
  app.add_option("--metadata", f.metadata, "KEY=VALUE kept in every result; repeatable, or several after one")
      ->allow_extra_args(false);
  app.add_option("--save-requests", f.save_requests, "write one JSON line per request (all timestamps) to FILE");
  app.add_flag("--json", f.json, "print the report as JSON (schema cuprobe.bench/1)");
  app.add_flag("-q,--quiet", f.quiet, "no progress on stderr");
}

}  // namespace

void declare_bench_flags(CLI::App& app, BenchFlags& flags) {
  declare_server(app, flags);
  declare_load(app, flags);
  // Workloads (datasets, token-true lengths): one block, see cli/workload_flags.h.
  add_workload_flags(app, flags.workload);
  declare_request_body(app, flags);
  add_http_client_flags(app, flags.client);
  declare_bounds(app, flags);
  declare_profile_and_counters(app, flags);
  declare_arrivals(app, flags);
  declare_results(app, flags);
  declare_peer_only_flags(app);
}

}  // namespace cuprobe
