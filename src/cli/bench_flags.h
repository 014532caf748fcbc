// `cuprobe bench`'s flags as given, declared once (declare_bench_flags); the plan
// (cli/bench_plan.h) checks and resolves them before anything is sent.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/counter_flags.h"
#include "cli/http_client_flags.h"
#include "cli/workload_flags.h"

namespace cuprobe {

// The sampling parameters sent in every request body (vLLM's sampling group;
// SGLang's bodies carry temperature 0.0); a parameter not given is not sent
// (vLLM leaves it to the server), except in SGLang's bodies, which carry
// temperature 0.0 unless given.
struct SamplingFlags {
  std::optional<double> temperature;
  std::optional<double> top_p, min_p, frequency_penalty, presence_penalty, repetition_penalty;
  std::optional<std::int64_t> top_k;
};

struct BenchFlags {
  // where: URL, or the peers' --base-url / --host / --port (with --endpoint or --backend)
  std::string url, base_url, host, backend;
  std::optional<int> port;
  // what to send, and how
  std::string endpoint, model, served_model_name, dataset, extra_body, request_id_prefix;
  std::int64_t input_len = 256, output_len = 128;
  SamplingFlags sampling;
  bool no_ignore_eos = false, ignore_eos = false, no_stream_options = false;
  bool disable_tqdm = false, disable_stream = false, apply_chat_template = false;
  WorkloadSpec workload;
  HttpClientFlags client;
  // arrivals and the run's bounds
  int concurrency = -1;  // -1: not given
  std::string rate, arrival = "poisson", duration, warmup = "0", ramp_up;
  std::string request_timeout = "10m", timeout = "1h", wait_timeout = "10m";
  std::optional<std::int64_t> ready_check_timeout_sec;  // vLLM's and SGLang's: seconds, 0 = no wait
  double burstiness = 1.0, ramp_start_rps = 0, ramp_end_rps = 0, max_error_rate = 0;
  std::int64_t requests = 0;  // 0: not given; < 0 refused in one line
  std::uint64_t seed = 1;
  bool no_wait = false, no_keep_alive = false;
  // the server's profiler and /metrics, the device counters
  std::string profile, profile_dir;
  std::int64_t profile_steps = 0;
  bool server_metrics = false, sample = false, sample_optional = false;
  CounterFlags counters;
  // metrics and results
  std::string percentiles = "50,90,99", percentile_metrics, result_format, label, save_requests;
  std::string result_file, result_dir, result_filename, output_file;  // cuprobe's FILE; vLLM's; SGLang's
  bool save_result = false, append_result = false, save_detailed = false, result_identity = false;
  std::vector<std::string> goodput, metadata;
  bool json = false, csv = false, quiet = false;
};

void declare_bench_flags(CLI::App& app, BenchFlags& flags);

}  // namespace cuprobe
