#include "cli/bench_plan.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include "cli/bench_peer_flags.h"
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

bool is_inf(const std::string& text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t == "inf" || t == "+inf" || t == "infinity";
}

// --rate 2,4,8: one run per rate; inf (the peers' default): none, a closed loop.
std::vector<double> parse_rates(const std::string& text) {
  std::vector<double> rates;
  if (is_inf(text)) return rates;
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

// Whose rules apply where vLLM and SGLang differ: --result-format, else --backend,
// else the result option only one of them has.
Peer plan_peer(const BenchFlags& f, const std::optional<BackendInfo>& backend) {
  if (f.result_format == "vllm") return Peer::kVllm;
  if (f.result_format == "sglang") return Peer::kSglang;
  if (backend) return backend->peer;
  if (!f.output_file.empty()) return Peer::kSglang;
  if (f.save_result || f.append_result) return Peer::kVllm;
  return Peer::kNone;
}

// The server as URL, or as the peers name it: --base-url, or --host/--port (their defaults).
std::string server_url(const BenchFlags& f, const std::optional<BackendInfo>& backend, Peer peer) {
  const bool host_port = !f.host.empty() || f.port.has_value();
  if (!f.url.empty() && (!f.base_url.empty() || host_port))
    throw Error("the server is given twice: URL, or --base-url, or --host/--port", kExitUsage);
  if (!f.base_url.empty() && host_port) throw Error("--base-url and --host/--port exclude each other", kExitUsage);
  if (!f.url.empty()) return f.url;
  if (!f.base_url.empty()) return f.base_url;
  // The peers' default server (127.0.0.1, the backend's port) for a peer's line; a line
  // with nothing of a peer's names no server.
  if (!host_port && !backend && f.model.empty())
    throw Error("which server? give URL, --base-url, --host/--port or a peer's --backend/--model", kExitUsage);
  std::string host = f.host.empty() ? "127.0.0.1" : f.host;  // SGLang's 0.0.0.0 means this host too
  if (host.find(':') != std::string::npos && host.front() != '[') host = "[" + host + "]";
  int port = f.port.value_or(backend ? backend->port : (peer == Peer::kSglang ? 30000 : 8000));
  if (port < 1 || port > 65535) throw Error("--port must be within 1..65535", kExitUsage);
  return "http://" + host + ":" + std::to_string(port);
}

// The server, the endpoint and the API they name; whose rules apply.
void plan_target(const BenchFlags& f, BenchPlan& p) {
  std::optional<BackendInfo> backend;
  if (!f.backend.empty()) {
    backend = find_backend(f.backend);
    if (!backend) throw Error("--backend " + f.backend + ": bench speaks " + backend_names(), kExitUsage);
  }
  p.backend = f.backend;
  p.peer = plan_peer(f, backend);
  p.server = parse_http_url(server_url(f, backend, p.peer));
  std::string url_endpoint = take_api_endpoint(p.server.path);
  std::string fallback = backend ? backend->endpoint : "/v1/completions";
  p.endpoint = !f.endpoint.empty() ? f.endpoint : (url_endpoint.empty() ? fallback : url_endpoint);
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

// Requests in flight. The peers' default (--request-rate inf, no --max-concurrency)
// sends every request at once: so does a peer's line (--request-rate inf, or the
// server named by --backend/--base-url/--host/--port) that gives no cap; cuprobe's
// own default is one at a time.
void plan_concurrency(const BenchFlags& f, BenchPlan& p) {
  LoadOptions& opt = p.load;
  const bool peer_line = is_inf(f.rate) || !f.backend.empty() || f.url.empty();
  if (f.concurrency >= 0 || opt.rate > 0 || opt.ramp != RampUp::kNone || !peer_line) return;
  if (opt.requests == 0 || opt.warmup_ns > 0) {
    throw Error(
        "every request at once (no --max-concurrency, --request-rate inf) needs a count: give --num-prompts "
        "and a --num-warmups count, or -c",
        kExitUsage);
  }
  opt.concurrency = static_cast<int>(std::min<std::uint64_t>(opt.requests, 1'000'000));
  p.max_concurrency.reset();
}

// How much to send, how fast, and the run's bounds.
void plan_load(const BenchFlags& f, const CLI::App& app, BenchPlan& p) {
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
  if (f.concurrency > 0 || (f.concurrency < 0 && rate <= 0)) p.max_concurrency = opt.concurrency;
  opt.seed = f.seed;
  opt.keep_alive = !f.no_keep_alive;
  opt.duration_ns = f.duration.empty() ? 0 : ns_of(f.duration);
  if (!f.duration.empty() && opt.duration_ns <= 0) throw Error("--duration must be positive", kExitUsage);
  if (f.requests < 0) {
    throw Error("--num-prompts " + std::to_string(f.requests) +
                    ": give the number of requests to send (a positive count; --duration for a timed run)",
                kExitUsage);
  }
  opt.requests = f.requests > 0 ? static_cast<std::uint64_t>(f.requests) : (opt.duration_ns > 0 ? 0 : 1000);
  if (f.warmup.find_first_not_of("0123456789") == std::string::npos && !f.warmup.empty()) {
    opt.warmup_requests = std::stoull(f.warmup.substr(0, 12));
  } else {
    opt.warmup_ns = ns_of(f.warmup);
  }
  // SGLang sends one warm-up request unless told otherwise (--warmup-requests 1); vLLM none.
  if (p.peer == Peer::kSglang && app.count("--warmup") == 0) opt.warmup_requests = 1;
  plan_concurrency(f, p);
  opt.request_timeout_ns = ns_of(f.request_timeout);
  opt.run_timeout_ns = ns_of(f.timeout);
  if (opt.request_timeout_ns <= 0 || opt.run_timeout_ns <= 0) throw Error("timeouts must be positive", kExitUsage);
  opt.burstiness = f.burstiness;
  opt.ramp_start_rps = f.ramp_start_rps;
  opt.ramp_end_rps = f.ramp_end_rps;
  if (opt.ramp != RampUp::kNone) {
    std::uint64_t total = opt.duration_ns == 0 && opt.warmup_ns == 0 ? opt.requests : 0;  // warm-up: apart
    ArrivalPlan plan{rate, f.burstiness, opt.ramp, f.ramp_start_rps, f.ramp_end_rps, total, 1};
    if (std::string why = check_arrival_plan(plan); !why.empty()) throw Error(why, kExitUsage);
  }
  p.run_deadline = mono_ns() + opt.run_timeout_ns;
  p.timeout_text = f.timeout;
}

// The sampling parameters given, as the body names them (temperature apart).
nlohmann::json sampling_json(const SamplingFlags& s) {
  nlohmann::json j = nlohmann::json::object();
  if (s.top_p) j["top_p"] = *s.top_p;
  if (s.top_k) j["top_k"] = *s.top_k;
  if (s.min_p) j["min_p"] = *s.min_p;
  if (s.frequency_penalty) j["frequency_penalty"] = *s.frequency_penalty;
  if (s.presence_penalty) j["presence_penalty"] = *s.presence_penalty;
  if (s.repetition_penalty) j["repetition_penalty"] = *s.repetition_penalty;
  return j;
}

// The workload flags with the peers' meanings applied: vLLM's general --input-len and
// --output-len map to every dataset's own; SGLang's range rule and output length
// where SGLang's rules apply.
WorkloadSpec peer_workload_flags(const BenchFlags& f, const CLI::App& app, BenchPlan& p) {
  const Peer peer = p.peer;
  WorkloadSpec w = f.workload;
  // A peer's line without --dataset-name gets vLLM's default workload, random (SGLang's
  // default, ShareGPT downloaded from the Hub, is not offered offline).
  if (w.dataset_name.empty() && f.dataset.empty() && (!f.backend.empty() || f.url.empty())) {
    w.dataset_name = "random";
    if (peer == Peer::kSglang)
      p.notes.push_back("no --dataset-name: the random workload (SGLang's default, sharegpt, needs --dataset-path)");
  }
  if (w.dataset_name.empty()) return w;
  if (peer == Peer::kSglang) {
    w.random.rule = RangeRule::kSglang;
    if (app.count("--random-output-len") == 0) w.random.output_len = 1024;  // SGLang's default
  }
  if (app.count("--input-len") > 0) w.random.input_len = w.sonnet.input_len = f.input_len;
  if (app.count("--output-len") > 0) {
    w.random.output_len = w.sonnet.output_len = w.repetition.output_len = w.custom.output_len = f.output_len;
    w.sharegpt_output_len = f.output_len;
  }
  return w;
}

// Whose request bodies: the peer's whose rules apply; a peer's line without
// --backend (no URL) is vLLM's (its default backend, openai); a URL line cuprobe's.
// Then ignore_eos where that peer sets it (vLLM: --ignore-eos, or the random and
// timed_trace datasets, serve.py main_async; SGLang: unless --disable-ignore-eos;
// cuprobe: unless --no-ignore-eos), stream_options (SGLang sends none) and vLLM's
// request ids (bench-<8 hex>-N, its --request-id-prefix default).
void plan_body(const BenchFlags& f, const CLI::App& app, const std::string& dataset, BenchPlan& p) {
  RequestTemplate& tpl = p.request;
  const Peer peer = p.peer != Peer::kNone ? p.peer : (f.url.empty() ? Peer::kVllm : Peer::kNone);
  tpl.style = peer == Peer::kVllm ? BodyStyle::kVllm : peer == Peer::kSglang ? BodyStyle::kSglang : BodyStyle::kCuprobe;
  if (tpl.style == BodyStyle::kVllm) {
    // cuprobe's synthetic prompts (a URL line under vLLM's rules) stand in for vLLM's random dataset.
    const bool synthetic = dataset.empty() && f.dataset.empty();
    const bool peer_sets = dataset == "random" || dataset == "timed_trace" || synthetic;
    tpl.ignore_eos = !f.no_ignore_eos && (f.ignore_eos || peer_sets);
    tpl.request_id_prefix = app.count("--request-id-prefix") > 0 ? f.request_id_prefix : random_request_id_prefix();
  } else {
    tpl.ignore_eos = !f.no_ignore_eos;
    tpl.request_id_prefix = f.request_id_prefix;
  }
  tpl.stream_options = !f.no_stream_options && tpl.style != BodyStyle::kSglang;
}

// The request template (its model may come from the server) and the prompts.
void plan_requests(const BenchFlags& f, const CLI::App& app, BenchPlan& p) {
  RequestTemplate& tpl = p.request;
  if (!f.extra_body.empty()) {
    tpl.extra_body = nlohmann::json::parse(f.extra_body, nullptr, false);
    if (!tpl.extra_body.is_object()) throw Error("--extra-body must be a JSON object", kExitUsage);
  }
  if (f.disable_stream) {
    throw Error(
        "--disable-stream: bench measures streamed responses (TTFT, ITL); SGLang's non-streaming mode is "
        "not offered",
        kExitUsage);
  }
  if (f.ignore_eos && f.no_ignore_eos) throw Error("--ignore-eos and --no-ignore-eos exclude each other", kExitUsage);
  if (f.request_id_prefix.find_first_of("\r\n") != std::string::npos)
    throw Error("--request-id-prefix must be one line", kExitUsage);
  p.client = http_client_config(f.client, p.server);
  if (!f.workload.dataset_name.empty() && !f.dataset.empty()) {
    throw Error("--dataset is --dataset-name jsonl --dataset-path FILE; give one of them", kExitUsage);
  }
  const WorkloadSpec workload = peer_workload_flags(f, app, p);
  check_workload_flags_used(app, workload);
  const LoadOptions& opt = p.load;
  p.workload = plan_workload(workload, opt.requests, f.output_len, f.seed);  // the warm-up sends the first prompt
  p.dataset_name = workload.dataset_name;
  if (!p.workload) {
    p.prompts = f.dataset.empty() ? synthetic_prompts(f.input_len, f.output_len, f.seed)
                                  : dataset_prompts(f.dataset, f.output_len, f.workload.dataset_max_bytes);
  }
  if (f.dataset.empty() && !p.workload) p.input_len = f.input_len;
  p.output_len = f.output_len;
  tpl.path = p.server.path + p.endpoint;
  tpl.authority = p.server.authority();
  tpl.model = f.served_model_name.empty() ? f.model : f.served_model_name;
  p.model_id = f.served_model_name.empty() ? "" : f.model;
  p.tokenizer = f.workload.tokenizer;
  plan_body(f, app, workload.dataset_name, p);
  tpl.temperature = f.sampling.temperature;
  tpl.sampling = sampling_json(f.sampling);
  tpl.extra_headers = p.client.extra_headers;
  p.load.tls = p.client.tls;
  if (const ProxyServer* proxy = p.client.proxies.route(p.server)) p.load.proxy = *proxy;
  if (f.disable_tqdm)
    p.notes.push_back("--disable-tqdm: no effect here (bench draws no progress bar; -q silences progress)");
  if (f.apply_chat_template) {
    p.notes.push_back(
        "--apply-chat-template: prompts are sent as text (cuprobe renders no chat template; a chat "
        "endpoint applies the server's)");
  }
}

// The peers' percentile metrics for --result-format vllm.
std::vector<std::string> parse_percentile_metrics(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t pos = 0; !text.empty() && pos <= text.size();) {
    std::size_t end = std::min(text.find(',', pos), text.size());
    std::string m = text.substr(pos, end - pos);
    pos = end + 1;
    if (m != "ttft" && m != "tpot" && m != "itl" && m != "e2el" && m != "client_queue_time" &&
        m != "e2el_including_client_queue") {
      throw Error("--percentile-metrics: '" + m +
                      "' is not one of ttft, tpot, itl, e2el, client_queue_time, e2el_including_client_queue",
                  kExitUsage);
    }
    out.push_back(m);
  }
  return out;
}

// Where results go: --result-file (cuprobe's), --save-result/--append-result (vLLM's,
// in --result-dir), --output-file (SGLang's, appended), each in --result-format or its own.
BenchOutputs plan_outputs(const BenchFlags& f, const CLI::App& app) {
  BenchOutputs o;
  o.json = f.json;
  o.csv = f.csv;
  o.save_requests = f.save_requests;
  o.inputs = {f.dataset, f.workload.dataset_path, f.workload.tokenizer};
  const std::string& fmt = f.result_format;
  if (!f.result_file.empty()) o.results.push_back({f.result_file, "", fmt.empty() ? "cuprobe" : fmt, false});
  if (f.save_result || f.append_result) {
    std::string name = f.result_filename;
    if (!name.empty() && !f.result_dir.empty()) name = f.result_dir + "/" + name;
    o.results.push_back({name, f.result_dir, fmt.empty() ? "vllm" : fmt, f.append_result});
  } else if (app.count("--result-dir") > 0 || app.count("--result-filename") > 0) {
    throw Error("--result-dir and --result-filename name the file of --save-result: give it too", kExitUsage);
  }
  if (!f.output_file.empty()) o.results.push_back({f.output_file, "", fmt.empty() ? "sglang" : fmt, true});
  o.peer.detailed = f.save_detailed;
  o.peer.metrics = parse_percentile_metrics(f.percentile_metrics);
  if (app.count("--percentiles") > 0) o.peer.percentiles = parse_percentiles(f.percentiles);
  o.peer.identity = f.result_identity;
  for (const ResultTarget& t : o.results) refuse_output_over_inputs(t.path, o.inputs);  // before any load
  refuse_output_over_inputs(f.save_requests, o.inputs);
  return o;
}

std::optional<ProfileSettings> plan_profile(const BenchFlags& f, const BenchPlan& p) {
  const LoadOptions& opt = p.load;
  if (f.profile.empty()) return std::nullopt;
  ProfileSettings ps;
  std::string kind = f.profile;
  if (kind == "auto") {  // the peers' --profile flag: the server kind --backend names
    if (p.peer == Peer::kNone)
      throw Error("--profile alone needs --backend (or say --profile sglang|vllm)", kExitUsage);
    kind = peer_name(p.peer);
  }
  if (kind == "sglang")
    ps.kind = ProfilerKind::kSglang;
  else if (kind == "vllm")
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
  p.notes = check_peer_only_flags(app);  // refused ones first: nothing else matters then
  plan_target(f, p);
  plan_arrivals(f, p);
  plan_load(f, app, p);
  plan_requests(f, app, p);
  p.profile = plan_profile(f, p);
  if (f.sample) p.counters = plan_counters(f.counters);
  p.sample_optional = f.sample_optional;
  p.wait_timeout_text = f.wait_timeout;
  if (f.ready_check_timeout_sec) {  // the peers' bound in seconds; 0: no wait
    if (*f.ready_check_timeout_sec < 0) throw Error("--ready-check-timeout-sec must not be negative", kExitUsage);
    p.wait_timeout_text = std::to_string(*f.ready_check_timeout_sec) + "s";
  }
  bool wait = !f.no_wait && f.ready_check_timeout_sec.value_or(1) > 0;
  if (wait) p.wait_timeout_ns = ns_of(p.wait_timeout_text);
  p.server_metrics = f.server_metrics;
  p.quiet = f.quiet;
  p.label = f.label;
  p.outputs = plan_outputs(f, app);
  // vLLM's --save-detailed writes every generated text: kept only then.
  for (const ResultTarget& t : p.outputs.results) p.load.keep_text |= f.save_detailed && t.format == "vllm";
  return p;
}

}  // namespace cuprobe
