// cuprobe bench URL: a streaming load generator for OpenAI-compatible servers
// (/v1/completions, /v1/chat/completions) and SGLang's /generate, with the
// server's profiler and the device counters captured over the steady state.
// One report (text, or JSON "cuprobe.bench/1"), one clock for every timestamp.
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/deprecated_option.h"
#include "cli/gpu_list.h"
#include "cli/http_client_flags.h"
#include "cli/parse_args.h"
#include "cli/sampler_flags.h"
#include "cli/verb.h"
#include "collect/counters/counter_summary.h"
#include "collect/counters/device_sampler.h"
#include "collect/counters/metric_presets.h"
#include "common/atomic_file.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signals.h"
#include "common/units.h"
#include "common/utf8.h"
#include "exporter/sampler_source.h"
#include "load/bench_metrics.h"
#include "load/http_url.h"
#include "load/load_runner.h"
#include "load/profiler_control.h"
#include "load/prompt_source.h"
#include "load/readiness.h"
#include "load/request_builder.h"
#include "load/stream_decoder.h"
#include "report/bench_report.h"
#include "report/counter_summary_report.h"

namespace cuprobe {
namespace {

std::int64_t ns_of(const std::string& text) { return parse_duration(text).count(); }

// Reads the device counters on its own thread for the whole run; the report
// keeps the rows of the steady window.
class SamplerThread {
 public:
  explicit SamplerThread(std::unique_ptr<DeviceSampler> sampler) : sampler_(std::move(sampler)) {
    sampler_->start();  // may throw (exit 3) before any load is sent
    thread_ = std::thread([this] {
      while (!done_.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        take(sampler_->drain());
      }
    });
  }
  ~SamplerThread() { finish(); }

  std::vector<CounterRow> finish() {
    if (thread_.joinable()) {
      done_ = true;
      thread_.join();
      sampler_->stop();
      take(sampler_->drain());
    }
    std::lock_guard<std::mutex> lock(mu_);
    return rows_;
  }
  const std::vector<std::string>& metric_names() const { return sampler_->metric_names(); }
  std::int64_t lost() const { return sampler_->lost_samples(); }

 private:
  void take(std::vector<CounterRow> rows) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& r : rows) rows_.push_back(std::move(r));
  }
  std::unique_ptr<DeviceSampler> sampler_;
  std::atomic<bool> done_{false};
  std::mutex mu_;
  std::vector<CounterRow> rows_;
  std::thread thread_;
};

class BenchObserver final : public LoadObserver {
 public:
  BenchObserver(ProfilerControl* profiler, bool quiet, std::uint64_t planned)
      : profiler_(profiler), quiet_(quiet), planned_(planned) {}
  void on_steady_start(std::int64_t) override {
    // Everything was sent before the first request ended: no steady state to profile.
    if (profiler_ && sent_all_)
      profiler_->skip("no steady state: every request was sent before the first one ended");
    else if (profiler_)
      profiler_->request_start();
    if (!quiet_) std::fprintf(stderr, "bench: steady state reached (first measured request ended)\n");
  }
  void on_issue_end(std::int64_t) override {
    sent_all_ = true;
    if (profiler_) profiler_->request_stop();
    if (!quiet_) std::fprintf(stderr, "bench: all requests sent, draining\n");
  }
  void on_tick(std::int64_t now, const LoadProgress& p) override {
    if (quiet_) return;
    if (last_ == 0) last_ = now;
    if (now - last_ < 5'000'000'000) return;
    last_ = now;
    std::string of = planned_ ? "/" + std::to_string(planned_) : "";
    std::fprintf(stderr, "bench: %llu%s sent, %llu done, %llu failed, %d in flight\n",
                 static_cast<unsigned long long>(p.issued), of.c_str(), static_cast<unsigned long long>(p.completed),
                 static_cast<unsigned long long>(p.failed), p.in_flight);
  }

 private:
  ProfilerControl* profiler_;
  bool quiet_;
  std::uint64_t planned_;
  std::int64_t last_ = 0;
  bool sent_all_ = false;
};

// A failed request of a run where no measured request ever got a connection
// (the server is unreachable: exit 1, not a threshold); nullptr otherwise.
const RequestRecord* never_connected(const std::vector<RequestRecord>& records) {
  const RequestRecord* first = nullptr;
  for (const RequestRecord& r : records) {
    if (r.warmup) continue;
    if (!r.error.starts_with("connect_")) return nullptr;
    if (!first) first = &r;
  }
  return first;
}

// A 400/422 whose body names `field`: a server that rejects fields it does not know.
bool rejected_field(const std::vector<RequestRecord>& records, const char* field) {
  for (const RequestRecord& r : records) {
    if ((r.error == "http_400" || r.error == "http_422") && r.error_detail.find(field) != std::string::npos) {
      return true;
    }
  }
  return false;
}

int run_bench(int argc, char** argv) {
  CLI::App app{
      "Streaming load against an LLM server: throughput, TTFT/ITL/TPOT/E2E over the whole run and the "
      "steady state, with the server's profiler (--profile) and device counters (--sample) captured "
      "inside the steady window. http:// or https:// (--cacert, --insecure)."};
  app.name(argv[0]);
  std::string url_text, endpoint, model, arrival_text = "poisson", duration_text, warmup_text = "0";
  std::string dataset, extra_body_text, request_timeout_text = "10m", timeout_text = "1h", wait_timeout_text = "10m";
  std::string profile_kind, profile_dir, sample_interval_text = "100ms", sample_preset = "triage", gpu_text = "all";
  std::string save_requests;
  HttpClientFlags client_flags;
  int concurrency = -1;
  double rate = 0, max_error_rate = 0, temperature = 0;
  std::uint64_t requests = 0, seed = 1;
  std::int64_t input_len = 256, output_len = 128, profile_steps = 0;
  bool no_ignore_eos = false, no_stream_options = false, no_wait = false, json = false, quiet = false, sample = false,
       sample_optional = false;
  app.add_option("URL", url_text,
                 "server, e.g. http://127.0.0.1:30000, http://host:8000/v1/chat/completions or https://gateway/v1")
      ->required();
  app.add_option("--endpoint", endpoint, "/v1/completions (default), /v1/chat/completions or /generate");
  app.add_option("--model", model, "model name for OpenAI endpoints (default: the first of /v1/models)");
  app.add_option("-c,--concurrency", concurrency,
                 "closed loop: requests in flight (default 1); with --rate: the most in flight (default: no cap)");
  app.add_option("--rate", rate, "open loop: requests per second");
  app.add_option("--arrival", arrival_text, "open-loop arrivals: poisson or constant")->capture_default_str();
  app.add_option("-n,--requests", requests, "measured requests to send (default 1000 unless --duration)");
  app.add_option("--duration", duration_text, "stop sending this long after the first measured request (e.g. 60s)");
  app.add_option("--warmup", warmup_text, "requests (N) or seconds (e.g. 20s) at the start that are not measured")
      ->capture_default_str();
  app.add_option("--input-len", input_len, "synthetic prompt length in words (~tokens)")->capture_default_str();
  app.add_option("--output-len", output_len, "max_tokens of every request")->capture_default_str();
  app.add_option("--dataset", dataset,
                 "JSONL prompts: {\"prompt\": ...} or {\"messages\": [...]}, optional max_tokens");
  app.add_flag("--no-ignore-eos", no_ignore_eos, "do not ask the server to ignore EOS (outputs may be shorter)");
  app.add_flag("--no-stream-options", no_stream_options,
               "leave stream_options out of OpenAI request bodies (servers that reject unknown fields with 400/422); "
               "output tokens are then counted from the stream");
  app.add_option("--temperature", temperature, "sampling temperature")->capture_default_str();
  app.add_option("--extra-body", extra_body_text, "JSON object merged into every request body");
  add_http_client_flags(app, client_flags);
  app.add_option("--seed", seed, "seed for prompts and arrivals")->capture_default_str();
  app.add_option("--request-timeout", request_timeout_text, "a request still running after this fails with 'timeout'")
      ->capture_default_str();
  app.add_option("--timeout", timeout_text, "bound on the whole run; in-flight requests are then cancelled (exit 1)")
      ->capture_default_str();
  app.add_option("--max-error-rate", max_error_rate, "fraction of failed requests tolerated (else exit 4)")
      ->capture_default_str();
  app.add_flag("--no-wait", no_wait, "do not wait for the server to be ready first");
  app.add_option("--wait-timeout", wait_timeout_text, "how long to wait for readiness (exit 1)")->capture_default_str();
  app.add_option("--profile", profile_kind, "start/stop the server's torch profiler in the steady window: sglang|vllm");
  app.add_option("--profile-dir", profile_dir, "SGLang output_dir for the traces (on the server host)");
  app.add_option("--profile-steps", profile_steps, "SGLang num_steps: the server stops profiling by itself");
  app.add_flag("--sample", sample, "sample device counters over the steady window (needs a GPU: exit 3 otherwise)");
  app.add_flag("--sample-optional", sample_optional, "with --sample: run without counters when they are unavailable");
  auto* interval_opt = app.add_option("--interval", sample_interval_text, "with --sample: counter sample interval")
                           ->capture_default_str();
  add_deprecated_alias(app, interval_opt, "--sample-interval");
  auto* preset_opt = app.add_option("--preset", sample_preset, "with --sample: counter preset, triage or pipes")
                         ->check(CLI::IsMember(preset_names()))
                         ->capture_default_str();
  add_deprecated_alias(app, preset_opt, "--sample-preset");
  app.add_option("--gpu", gpu_text, "with --sample: GPUs to sample, all or indices like 0,1")->capture_default_str();
  std::string sample_source;
  add_counter_source_option(app, sample_source, "with --sample: ");
  app.add_option("--save-requests", save_requests, "write one JSON line per request (all timestamps) to FILE");
  app.add_flag("--json", json, "print the report as JSON (schema cuprobe.bench/1)");
  app.add_flag("-q,--quiet", quiet, "no progress on stderr");
  if (auto code = parse_args(app, argc, argv)) return *code;

  // --- what to send
  HttpUrl server = parse_http_url(url_text);
  std::string url_endpoint = take_api_endpoint(server.path);
  if (endpoint.empty()) endpoint = url_endpoint.empty() ? "/v1/completions" : url_endpoint;
  if (!url_endpoint.empty() && url_endpoint != endpoint) {
    throw Error("the URL names " + url_endpoint + " but --endpoint is " + endpoint, kExitUsage);
  }
  ApiKind api = api_for_endpoint(endpoint);
  Arrival arrival;
  if (arrival_text == "poisson")
    arrival = Arrival::kPoisson;
  else if (arrival_text == "constant")
    arrival = Arrival::kConstant;
  else
    throw Error("--arrival must be poisson or constant", kExitUsage);
  if (rate < 0) throw Error("--rate must be positive", kExitUsage);
  if (concurrency == 0 && rate <= 0) throw Error("--concurrency must be at least 1", kExitUsage);
  if (concurrency < -1) throw Error("--concurrency must be at least 1", kExitUsage);
  if (max_error_rate < 0 || max_error_rate > 1) throw Error("--max-error-rate must be within 0..1", kExitUsage);
  if (profile_steps < 0) throw Error("--profile-steps must be positive", kExitUsage);
  LoadOptions opt;
  opt.host = server.host;
  opt.port = server.port;
  opt.api = api;
  opt.rate = rate;
  opt.concurrency = concurrency >= 0 ? concurrency : (rate > 0 ? 0 : 1);
  opt.arrival = arrival;
  opt.seed = seed;
  opt.duration_ns = duration_text.empty() ? 0 : ns_of(duration_text);
  if (!duration_text.empty() && opt.duration_ns <= 0) throw Error("--duration must be positive", kExitUsage);
  opt.requests = requests > 0 ? requests : (opt.duration_ns > 0 ? 0 : 1000);
  if (warmup_text.find_first_not_of("0123456789") == std::string::npos && !warmup_text.empty()) {
    opt.warmup_requests = std::stoull(warmup_text.substr(0, 12));
  } else {
    opt.warmup_ns = ns_of(warmup_text);
  }
  opt.request_timeout_ns = ns_of(request_timeout_text);
  opt.run_timeout_ns = ns_of(timeout_text);
  if (opt.request_timeout_ns <= 0 || opt.run_timeout_ns <= 0) throw Error("timeouts must be positive", kExitUsage);
  const std::int64_t run_deadline = mono_ns() + opt.run_timeout_ns;
  nlohmann::json extra_body;
  if (!extra_body_text.empty()) {
    extra_body = nlohmann::json::parse(extra_body_text, nullptr, false);
    if (!extra_body.is_object()) throw Error("--extra-body must be a JSON object", kExitUsage);
  }
  const HttpClientConfig client = http_client_config(client_flags, server);
  std::unique_ptr<PromptSource> prompts =
      dataset.empty() ? synthetic_prompts(input_len, output_len, seed) : dataset_prompts(dataset, output_len);
  std::optional<ProfileSettings> profile;
  if (!profile_kind.empty()) {
    ProfileSettings ps;
    if (profile_kind == "sglang")
      ps.kind = ProfilerKind::kSglang;
    else if (profile_kind == "vllm")
      ps.kind = ProfilerKind::kVllm;
    else
      throw Error("--profile must be sglang or vllm", kExitUsage);
    if (ps.kind == ProfilerKind::kVllm && (profile_steps > 0 || !profile_dir.empty())) {
      throw Error("--profile-steps and --profile-dir are SGLang options (vLLM writes to VLLM_TORCH_PROFILER_DIR)",
                  kExitUsage);
    }
    ps.output_dir = profile_dir;
    ps.call_timeout = std::min(ps.call_timeout, std::chrono::nanoseconds(opt.run_timeout_ns));
    ps.num_steps = profile_steps;
    profile = ps;
  }

  // --- counters: refuse before any load is sent
  std::unique_ptr<SamplerThread> sampler;
  std::string sample_note;
  if (sample) {
    SamplerConfig sc;
    sc.gpus = parse_gpu_list(gpu_text);
    sc.interval = parse_duration(sample_interval_text);
    sc.preset = sample_preset;
    try {
      sampler = std::make_unique<SamplerThread>(open_counter_sampler(sc, parse_counter_source(sample_source), true));
    } catch (const Error& e) {
      if (!sample_optional || e.exit_code() != kExitCountersUnavailable) throw;
      sample_note = std::string("unavailable (") + e.what() + ")";
      if (!quiet) std::fprintf(stderr, "bench: --sample-optional: counters %s; running without\n", sample_note.c_str());
    }
  }

  // --- readiness, model name
  if (!no_wait) {
    // --timeout bounds everything, the readiness wait included.
    std::int64_t wait_ns = std::min<std::int64_t>(ns_of(wait_timeout_text), run_deadline - mono_ns());
    bool bounded_by_run = wait_ns < ns_of(wait_timeout_text);
    ReadinessResult ready =
        wait_until_ready(server, client, std::chrono::nanoseconds(std::max<std::int64_t>(wait_ns, 1)),
                         std::chrono::seconds(1), [&](double t, const std::string& state) {
                           if (!quiet) std::fprintf(stderr, "bench: [%6.1fs] %s\n", t, state.c_str());
                         });
    if (!ready.ready) {
      throw Error("server not ready after " + (bounded_by_run ? timeout_text + " (--timeout)" : wait_timeout_text) +
                  "; last seen: " + ready.last.state);
    }
    if (model.empty() && api != ApiKind::kGenerate && !ready.last.models.empty()) model = ready.last.models.front();
  }

  RequestTemplate tpl;
  tpl.api = api;
  tpl.path = server.path + endpoint;
  tpl.authority = server.authority();
  tpl.model = model;
  tpl.ignore_eos = !no_ignore_eos;
  tpl.stream_options = !no_stream_options;
  tpl.temperature = temperature;
  tpl.extra_body = extra_body;
  tpl.extra_headers = client.extra_headers;
  opt.tls = client.tls;
  RequestFactory factory = [&](std::uint64_t index) {
    Prompt p = prompts->prompt(index);
    return OutgoingRequest(build_http_request(tpl, p), p.max_tokens, p.expected_prompt_tokens);
  };

  nlohmann::ordered_json settings;
  settings["url"] = server.base() + server.path;
  settings["endpoint"] = endpoint;
  settings["model"] = repair_utf8(model);
  settings["mode"] = rate > 0 ? "open_loop" : "closed_loop";
  settings["concurrency"] = opt.concurrency;
  settings["rate"] = rate;
  settings["arrival"] = rate > 0 ? arrival_text : "";
  settings["requests"] = opt.requests;
  settings["duration_s"] = opt.duration_ns / 1e9;
  settings["warmup_requests"] = opt.warmup_requests;
  settings["warmup_s"] = opt.warmup_ns / 1e9;
  settings["prompts"] = repair_utf8(prompts->describe());
  settings["input_len"] = dataset.empty() ? nlohmann::ordered_json(input_len) : nlohmann::ordered_json();
  settings["output_len"] = output_len;
  settings["ignore_eos"] = tpl.ignore_eos;
  settings["stream_options"] = tpl.stream_options && api != ApiKind::kGenerate;
  settings["temperature"] = temperature;
  settings["seed"] = seed;
  settings["request_timeout_s"] = opt.request_timeout_ns / 1e9;
  settings["timeout_s"] = opt.run_timeout_ns / 1e9;
  settings["max_error_rate"] = max_error_rate;

  std::int64_t offset = monotonic_to_realtime_offset();
  std::unique_ptr<ProfilerControl> profiler;
  if (profile) profiler = std::make_unique<ProfilerControl>(server, client, *profile, offset);
  BenchObserver observer(profiler.get(), quiet, opt.requests ? opt.requests + opt.warmup_requests : 0);
  if (!quiet) {
    std::fprintf(stderr, "bench: %s%s, %s, %s\n", server.base().c_str(), tpl.path.c_str(),
                 rate > 0 ? ("open loop " + std::to_string(rate) + " req/s").c_str()
                          : ("concurrency " + std::to_string(opt.concurrency)).c_str(),
                 prompts->describe().c_str());
  }
  StopFlag stop;
  opt.run_timeout_ns = std::max<std::int64_t>(1'000'000, run_deadline - mono_ns());
  LoadResult load = run_load(opt, factory, observer, stop.flag());
  offset = load.realtime_offset_ns;

  BenchReport report;
  report.settings = settings;
  report.load = &load;
  report.max_error_rate = max_error_rate;
  report.all = whole_run_metrics(load.records);
  report.window = find_steady_window(load.records);
  report.steady = window_metrics(load.records, report.window);
  if (profiler) report.profile = profiler->finish();
  if (sampler) {
    std::vector<CounterRow> rows = sampler->finish();
    std::int64_t from = (report.window.valid ? report.window.start_ns : report.all.start_ns) + offset;
    std::int64_t to = (report.window.valid ? report.window.end_ns : report.all.end_ns) + offset;
    std::vector<CounterRow> inside;
    for (auto& r : rows) {
      if (r.start_ns >= from && r.end_ns <= to) inside.push_back(std::move(r));
    }
    CounterSummary summary = summarize_counters(sampler->metric_names(), inside, sampler->lost());
    report.sample = counter_summary_json(summary);
    report.sample["window"] = report.window.valid ? "steady" : "all";
    report.sample["start_ns"] = from;
    report.sample["end_ns"] = to;
    report.sample_text = format_counter_summary(summary);
    if (inside.empty())
      report.sample_note = "no counter sample fell inside the window (it is shorter than --interval?)";
  } else {
    report.sample_note = sample_note;
  }
  std::string out = json ? bench_report_json(report).dump(2) + "\n" : bench_report_text(report);
  if (!save_requests.empty()) {
    std::string lines;
    for (const auto& rec : load.records) lines += request_record_json(rec, offset).dump() + "\n";
    write_file_atomically(save_requests, lines);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (load.run_timed_out) {
    std::fprintf(stderr, "cuprobe bench: the run exceeded --timeout %s; the report covers what finished\n",
                 timeout_text.c_str());
    return kExitFailed;
  }
  if (load.stopped) return kExitFailed;
  if (const RequestRecord* refused = never_connected(load.records)) {
    std::fprintf(stderr, "cuprobe bench: cannot reach %s: %s\n", server.base().c_str(), refused->error_detail.c_str());
    return kExitFailed;
  }
  for (const auto& [field, option] :
       {std::pair{"stream_options", "--no-stream-options"}, std::pair{"ignore_eos", "--no-ignore-eos"}}) {
    if (rejected_field(load.records, field)) {
      std::fprintf(stderr, "cuprobe bench: the server rejected %s; try %s\n", field, option);
    }
  }
  if (!error_rate_passed(report)) {
    std::fprintf(stderr, "cuprobe bench: error rate %.1f%% is above --max-error-rate %.1f%%\n",
                 100 * error_rate(report.all), 100 * max_error_rate);
    return kExitThresholdTripped;
  }
  return kExitOk;
}

const VerbRegistration kRegistration{"bench",
                                     "streaming load at concurrency C or rate R, with latency metrics, "
                                     "server profiler and counters from the steady state",
                                     &run_bench};

}  // namespace
}  // namespace cuprobe
