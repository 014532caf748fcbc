// `cuprobe bench`'s flags as given, declared once (declare_bench_flags); the plan
// (cli/bench_plan.h) checks and resolves them before anything is sent.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/counter_flags.h"
#include "cli/http_client_flags.h"
#include "cli/workload_flags.h"

namespace cuprobe {

struct BenchFlags {
  // what to send, and how
  std::string url, endpoint, model, dataset, extra_body;
  std::int64_t input_len = 256, output_len = 128;
  double temperature = 0;
  bool no_ignore_eos = false, no_stream_options = false;
  WorkloadFlags workload;
  HttpClientFlags client;
  // arrivals and the run's bounds
  int concurrency = -1;  // -1: not given
  std::string rate, arrival = "poisson", duration, warmup = "0", ramp_up;
  std::string request_timeout = "10m", timeout = "1h", wait_timeout = "10m";
  double burstiness = 1.0, ramp_start_rps = 0, ramp_end_rps = 0, max_error_rate = 0;
  std::uint64_t requests = 0, seed = 1;
  bool no_wait = false, no_keep_alive = false;
  // the server's profiler and /metrics, the device counters
  std::string profile, profile_dir;
  std::int64_t profile_steps = 0;
  bool server_metrics = false, sample = false, sample_optional = false;
  CounterFlags counters;
  // metrics and results
  std::string percentiles = "50,90,99", save_result, result_format = "cuprobe", label, save_requests;
  std::vector<std::string> goodput, metadata;
  bool json = false, csv = false, quiet = false;
};

void declare_bench_flags(CLI::App& app, BenchFlags& flags);

// vLLM spells `--goodput ttft:200 tpot:50` as several words; CLI11 would take
// the second one for the URL. The words that look like SLOs are joined into
// one value here (the URL never matches: it has no NAME:NUMBER shape).
std::vector<std::string> join_goodput_values(int argc, char** argv);

}  // namespace cuprobe
