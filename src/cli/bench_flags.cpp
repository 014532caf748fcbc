#include "cli/bench_flags.h"

#include "cli/deprecated_option.h"

namespace cuprobe {

namespace {

void declare_what_to_send(CLI::App& app, BenchFlags& f) {
  app.add_option("URL", f.url,
                 "server, e.g. http://127.0.0.1:30000, http://host:8000/v1/chat/completions or https://gateway/v1")
      ->required();
  app.add_option("--endpoint", f.endpoint, "/v1/completions (default), /v1/chat/completions or /generate");
  app.add_option("--model", f.model, "model name for OpenAI endpoints (default: the first of /v1/models)");
  app.add_option("-c,--concurrency", f.concurrency,
                 "closed loop: requests in flight (default 1); with --rate: the most in flight (default: no cap)");
  app.add_option("--rate,--request-rate", f.rate,
                 "open loop: requests per second; a list (e.g. 2,4,8) runs once per rate (a sweep)");
  app.add_option("--arrival", f.arrival, "open-loop arrivals: poisson or constant")->capture_default_str();
  app.add_option("-n,--requests", f.requests, "measured requests to send (default 1000 unless --duration)");
  app.add_option("--duration", f.duration, "stop sending this long after the first measured request (e.g. 60s)");
  app.add_option("--warmup", f.warmup, "requests (N) or seconds (e.g. 20s) at the start that are not measured")
      ->capture_default_str();
  app.add_option("--input-len", f.input_len, "synthetic prompt length in words (~tokens)")->capture_default_str();
  app.add_option("--output-len", f.output_len, "max_tokens of every request")->capture_default_str();
  app.add_option("--dataset", f.dataset,
                 "JSONL prompts: {\"prompt\": ...} or {\"messages\": [...]}, optional max_tokens");
  // Workloads (datasets, token-true lengths): one block, see cli/workload_flags.h.
  add_workload_flags(app, f.workload);
  app.add_flag("--no-ignore-eos", f.no_ignore_eos, "do not ask the server to ignore EOS (outputs may be shorter)");
  app.add_flag("--no-stream-options", f.no_stream_options,
               "leave stream_options out of OpenAI request bodies (servers that reject unknown fields with 400/422); "
               "output tokens are then counted from the stream");
  app.add_option("--temperature", f.temperature, "sampling temperature")->capture_default_str();
  app.add_option("--extra-body", f.extra_body, "JSON object merged into every request body");
  add_http_client_flags(app, f.client);
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
}

void declare_profile_and_counters(CLI::App& app, BenchFlags& f) {
  app.add_option("--profile", f.profile, "start/stop the server's torch profiler in the steady window: sglang|vllm");
  app.add_option("--profile-dir", f.profile_dir, "SGLang output_dir for the traces (on the server host)");
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

// Arrivals, SLOs, results, server metrics (issue 13; vLLM's and SGLang's names as aliases).
void declare_arrivals_and_results(CLI::App& app, BenchFlags& f) {
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
                 "latency percentiles to report, e.g. 50,90,95,99,99.9")
      ->capture_default_str();
  app.add_flag("--server-metrics", f.server_metrics,
               "scrape the server's /metrics (vllm:, sglang:) at the steady window's start and end and report them");
  app.add_option("--save-result", f.save_result, "write the result to FILE in --result-format");
  app.add_option("--result-format", f.result_format,
                 "cuprobe (the --json report), vllm (vllm bench serve's JSON) or sglang (appends bench_serving's "
                 "JSONL line)")
      ->check(CLI::IsMember({"cuprobe", "vllm", "sglang"}))
      ->capture_default_str();
  app.add_flag("--csv", f.csv, "print one CSV row per rate (the whole run's figures) instead of the text report");
  app.add_option("--label", f.label, "a name for this run, kept in every result");
  app.add_option("--metadata", f.metadata, "KEY=VALUE kept in every result; repeatable")->allow_extra_args(false);
  add_source_flag(app, f.counters, "with --sample: ");
  app.add_option("--save-requests", f.save_requests, "write one JSON line per request (all timestamps) to FILE");
  app.add_flag("--json", f.json, "print the report as JSON (schema cuprobe.bench/1)");
  app.add_flag("-q,--quiet", f.quiet, "no progress on stderr");
}

}  // namespace

void declare_bench_flags(CLI::App& app, BenchFlags& flags) {
  declare_what_to_send(app, flags);
  declare_profile_and_counters(app, flags);
  declare_arrivals_and_results(app, flags);
}

std::vector<std::string> join_goodput_values(int argc, char** argv) {
  auto slo_word = [](const std::string& w) {
    std::size_t colon = w.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == w.size()) return false;
    std::string name = w.substr(0, colon);
    return (name == "ttft" || name == "tpot" || name == "e2e" || name == "e2el") &&
           w.find_first_not_of("0123456789.", colon + 1) == std::string::npos;
  };
  std::vector<std::string> out;
  for (int i = 0; i < argc; ++i) {
    out.emplace_back(argv[i]);
    if (out.back() != "--goodput") continue;
    if (i + 1 < argc) out.emplace_back(argv[++i]);
    while (i + 1 < argc && slo_word(argv[i + 1])) out.back() += std::string(" ") + argv[++i];
  }
  return out;
}

}  // namespace cuprobe
