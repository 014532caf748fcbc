#include "cli/bench_plan.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include "common/atomic_file.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/units.h"
#include "load/arrivals.h"
#include "load/stream_decoder.h"
#include "report/bench_result.h"

namespace cuprobe {
namespace {

std::int64_t ns_of(const std::string& text) { return parse_duration(text).count(); }

// --rate 2,4,8: one run per rate.
std::vector<double> parse_rates(const std::string& text) {
  std::vector<double> rates;
  for (std::size_t pos = 0; !text.empty() && pos <= text.size();) {
    std::size_t end = std::min(text.find(',', pos), text.size());
    std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    char* stop = nullptr;
    double r = std::strtod(item.c_str(), &stop);
    if (item.empty() || *stop != '\0' || !(r > 0) || !std::isfinite(r))
      throw Error("--rate: '" + item + "' is not a positive number of requests/s", kExitUsage);
    rates.push_back(r);
  }
  return rates;
}

// The URL, the endpoint and the API they name.
void plan_target(const BenchFlags& f, BenchPlan& p) {
  p.server = parse_http_url(f.url);
  std::string url_endpoint = take_api_endpoint(p.server.path);
  p.endpoint = f.endpoint.empty() ? (url_endpoint.empty() ? "/v1/completions" : url_endpoint) : f.endpoint;
  if (!url_endpoint.empty() && url_endpoint != p.endpoint) {
    throw Error("the URL names " + url_endpoint + " but --endpoint is " + p.endpoint, kExitUsage);
  }
  p.request.api = api_for_endpoint(p.endpoint);
}

// Arrivals, SLOs, results: the rates of the runs and the metrics asked for.
void plan_arrivals(const BenchFlags& f, BenchPlan& p) {
  LoadOptions& opt = p.load;
  if (f.arrival == "poisson")
    opt.arrival = Arrival::kPoisson;
  else if (f.arrival == "constant")
    opt.arrival = Arrival::kConstant;
  else
    throw Error("--arrival must be poisson or constant", kExitUsage);
  p.arrival = f.arrival;
  p.rates = parse_rates(f.rate);
  if (!f.ramp_up.empty() && !parse_ramp_up(f.ramp_up, opt.ramp))
    throw Error("--ramp-up must be linear or exponential", kExitUsage);
  if (opt.ramp != RampUp::kNone && !p.rates.empty())
    throw Error("--ramp-up sets the rate itself: leave --rate out (as vLLM)", kExitUsage);
  if (opt.ramp == RampUp::kNone && (f.ramp_start_rps != 0 || f.ramp_end_rps != 0))
    throw Error("--ramp-up-start-rps and --ramp-up-end-rps need --ramp-up", kExitUsage);
  if (!(f.burstiness > 0)) throw Error("--burstiness must be positive", kExitUsage);
  if (f.burstiness != 1.0 && opt.arrival == Arrival::kConstant)
    throw Error("--burstiness shapes random arrivals: not with --arrival constant", kExitUsage);
  p.ramp_up = f.ramp_up;
  p.metrics.percentiles = parse_percentiles(f.percentiles);
  for (const std::string& g : f.goodput) parse_goodput(g, p.metrics.goodput);
  for (const std::string& m : f.metadata) p.metadata.push_back(parse_metadata(m));
  if (f.json && f.csv) throw Error("--json and --csv exclude each other", kExitUsage);
  if (p.rates.size() > 1 && !f.profile.empty())
    throw Error("--profile with a --rate sweep would profile every rate over one trace: run one rate", kExitUsage);
  if (p.rates.size() > 1 && f.sample)
    throw Error("--sample with a --rate sweep: run one rate per command to sample its steady window", kExitUsage);
  if (p.rates.empty()) p.rates.push_back(0);  // closed loop, or a ramp
}

// How much to send, how fast, and the run's bounds.
void plan_load(const BenchFlags& f, BenchPlan& p) {
  LoadOptions& opt = p.load;
  double rate = opt.ramp != RampUp::kNone ? f.ramp_start_rps : p.rates.front();
  if (rate < 0) throw Error("--rate must be positive", kExitUsage);
  if (f.concurrency == 0 && rate <= 0) throw Error("--concurrency must be at least 1", kExitUsage);
  if (f.concurrency < -1) throw Error("--concurrency must be at least 1", kExitUsage);
  if (f.max_error_rate < 0 || f.max_error_rate > 1) throw Error("--max-error-rate must be within 0..1", kExitUsage);
  if (f.profile_steps < 0) throw Error("--profile-steps must be positive", kExitUsage);
  p.max_error_rate = f.max_error_rate;
  opt.host = p.server.host;
  opt.port = p.server.port;
  opt.api = p.request.api;
  opt.rate = rate;
  opt.concurrency = f.concurrency >= 0 ? f.concurrency : (rate > 0 ? 0 : 1);
  opt.seed = f.seed;
  opt.keep_alive = !f.no_keep_alive;
  opt.duration_ns = f.duration.empty() ? 0 : ns_of(f.duration);
  if (!f.duration.empty() && opt.duration_ns <= 0) throw Error("--duration must be positive", kExitUsage);
  opt.requests = f.requests > 0 ? f.requests : (opt.duration_ns > 0 ? 0 : 1000);
  if (f.warmup.find_first_not_of("0123456789") == std::string::npos && !f.warmup.empty()) {
    opt.warmup_requests = std::stoull(f.warmup.substr(0, 12));
  } else {
    opt.warmup_ns = ns_of(f.warmup);
  }
  opt.request_timeout_ns = ns_of(f.request_timeout);
  opt.run_timeout_ns = ns_of(f.timeout);
  if (opt.request_timeout_ns <= 0 || opt.run_timeout_ns <= 0) throw Error("timeouts must be positive", kExitUsage);
  opt.burstiness = f.burstiness;
  opt.ramp_start_rps = f.ramp_start_rps;
  opt.ramp_end_rps = f.ramp_end_rps;
  if (opt.ramp != RampUp::kNone) {
    std::uint64_t total = opt.duration_ns == 0 && opt.warmup_ns == 0 ? opt.requests + opt.warmup_requests : 0;
    ArrivalPlan plan{rate, f.burstiness, opt.ramp, f.ramp_start_rps, f.ramp_end_rps, total, 1};
    if (std::string why = check_arrival_plan(plan); !why.empty()) throw Error(why, kExitUsage);
  }
  p.run_deadline = mono_ns() + opt.run_timeout_ns;
  p.timeout_text = f.timeout;
}

// The request template (its model may come from the server) and the prompts.
void plan_requests(const BenchFlags& f, const CLI::App& app, BenchPlan& p) {
  RequestTemplate& tpl = p.request;
  if (!f.extra_body.empty()) {
    tpl.extra_body = nlohmann::json::parse(f.extra_body, nullptr, false);
    if (!tpl.extra_body.is_object()) throw Error("--extra-body must be a JSON object", kExitUsage);
  }
  p.client = http_client_config(f.client, p.server);
  check_workload_flags_used(app, f.workload);
  if (!f.workload.dataset_name.empty() && app.count("--input-len") > 0) {
    throw Error(
        "--input-len is for the default prompts; with --dataset-name use --random-input-len (random) or the "
        "--gsp-* lengths (shared-prefix)",
        kExitUsage);
  }
  if (!f.workload.dataset_name.empty() && !f.dataset.empty()) {
    throw Error("--dataset is --dataset-name jsonl --dataset-path FILE; give one of them", kExitUsage);
  }
  const std::vector<std::string> inputs = {f.dataset, f.workload.dataset_path, f.workload.tokenizer};
  for (const auto& out : {f.save_requests, f.save_result}) refuse_output_over_inputs(out, inputs);  // before any load
  const LoadOptions& opt = p.load;
  p.workload =
      plan_workload(f.workload, opt.requests > 0 ? opt.requests + opt.warmup_requests : 0, f.output_len, f.seed);
  p.dataset_name = f.workload.dataset_name;
  if (!p.workload) {
    p.prompts = f.dataset.empty() ? synthetic_prompts(f.input_len, f.output_len, f.seed)
                                  : dataset_prompts(f.dataset, f.output_len, f.workload.dataset_max_bytes);
  }
  if (f.dataset.empty() && !p.workload) p.input_len = f.input_len;
  p.output_len = f.output_len;
  tpl.path = p.server.path + p.endpoint;
  tpl.authority = p.server.authority();
  tpl.model = f.model;
  tpl.ignore_eos = !f.no_ignore_eos;
  tpl.stream_options = !f.no_stream_options;
  tpl.temperature = f.temperature;
  tpl.extra_headers = p.client.extra_headers;
  p.load.tls = p.client.tls;
  if (const ProxyServer* proxy = p.client.proxies.route(p.server)) p.load.proxy = *proxy;
}

std::optional<ProfileSettings> plan_profile(const BenchFlags& f, const LoadOptions& opt) {
  if (f.profile.empty()) return std::nullopt;
  ProfileSettings ps;
  if (f.profile == "sglang")
    ps.kind = ProfilerKind::kSglang;
  else if (f.profile == "vllm")
    ps.kind = ProfilerKind::kVllm;
  else
    throw Error("--profile must be sglang or vllm", kExitUsage);
  if (ps.kind == ProfilerKind::kVllm && (f.profile_steps > 0 || !f.profile_dir.empty())) {
    throw Error("--profile-steps and --profile-dir are SGLang options (vLLM writes to VLLM_TORCH_PROFILER_DIR)",
                kExitUsage);
  }
  ps.output_dir = f.profile_dir;
  ps.call_timeout = std::min(ps.call_timeout, std::chrono::nanoseconds(opt.run_timeout_ns));
  ps.num_steps = f.profile_steps;
  return ps;
}

}  // namespace

BenchPlan plan_bench(const BenchFlags& f, const CLI::App& app) {
  BenchPlan p;
  plan_target(f, p);
  plan_arrivals(f, p);
  plan_load(f, p);
  plan_requests(f, app, p);
  p.profile = plan_profile(f, p.load);
  if (f.sample) p.counters = plan_counters(f.counters);
  p.sample_optional = f.sample_optional;
  if (!f.no_wait) p.wait_timeout_ns = ns_of(f.wait_timeout);
  p.wait_timeout_text = f.wait_timeout;
  p.server_metrics = f.server_metrics;
  p.quiet = f.quiet;
  p.label = f.label;
  p.outputs = BenchOutputs{f.json,        f.csv,           f.save_requests,
                           f.save_result, f.result_format, {f.dataset, f.workload.dataset_path, f.workload.tokenizer}};
  return p;
}

}  // namespace cuprobe
