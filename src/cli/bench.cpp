// cuprobe bench URL: a streaming load generator for OpenAI-compatible servers
// (/v1/completions, /v1/chat/completions) and SGLang's /generate, with the
// server's profiler and the device counters captured over the steady state.
// One report (text, or JSON "cuprobe.bench/1"), one clock for every timestamp.
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iterator>
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
#include "cli/workload_flags.h"
#include "collect/counters/counter_summary.h"
#include "collect/counters/device_sampler.h"
#include "collect/counters/metric_presets.h"
#include "collect/counters/sampler_source.h"
#include "collect/device/device_inventory.h"
#include "common/atomic_file.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signals.h"
#include "common/units.h"
#include "common/utf8.h"
#include "common/version.h"
#include "load/arrivals.h"
#include "load/bench_metrics.h"
#include "load/field_probe.h"
#include "load/load_runner.h"
#include "load/profiler_control.h"
#include "load/prompt_source.h"
#include "load/readiness.h"
#include "load/request_builder.h"
#include "load/server_metrics.h"
#include "load/stream_decoder.h"
#include "load/workload.h"
#include "net/http_url.h"
#include "report/bench_report.h"
#include "report/bench_result.h"
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
  BenchObserver(ProfilerControl* profiler, ServerMetricsScraper* metrics, bool quiet, std::uint64_t planned,
                Workload* workload)
      : profiler_(profiler), metrics_(metrics), quiet_(quiet), planned_(planned), workload_(workload) {}
  void on_request_end(std::uint64_t index) override {
    if (workload_) workload_->ended(index);
  }
  void on_steady_start(std::int64_t) override {
    if (metrics_ && !sent_all_) metrics_->request_start();
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
    if (metrics_) metrics_->request_end();
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
  ServerMetricsScraper* metrics_;
  bool quiet_;
  std::uint64_t planned_;
  Workload* workload_;
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

// vLLM spells `--goodput ttft:200 tpot:50` as several words; CLI11 would take
// the second one for the URL. The words that look like SLOs are joined into
// one value here (the URL never matches: it has no NAME:NUMBER shape).
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

// The exit code of one run (a sweep returns the worst): 1 beats 4.
int run_exit_code(const BenchReport& report, const HttpUrl& server, const std::string& timeout_text) {
  const LoadResult& load = *report.load;
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
                 100 * error_rate(report.all), 100 * report.max_error_rate);
    return kExitThresholdTripped;
  }
  return kExitOk;
}

struct BenchOutputs {
  bool json = false, csv = false;
  std::string save_requests, save_result, result_format;
  std::vector<std::string> inputs;  // the files read (datasets, tokenizer): never written over
};

// stdout (text, --json or --csv), --save-requests and --save-result, for one run or a sweep.
void write_bench_outputs(const std::vector<BenchReport>& reports, const BenchOutputs& o) {
  const bool sweep = reports.size() > 1;
  auto cuprobe_json = [&] {
    if (!sweep) return bench_report_json(reports.front());
    nlohmann::ordered_json doc;
    doc["schema"] = "cuprobe.bench/1";
    doc["sweep"] = nlohmann::ordered_json::array();
    for (const BenchReport& r : reports) doc["sweep"].push_back(bench_report_json(r));
    return doc;
  };
  std::string out;
  if (o.json) {
    out = cuprobe_json().dump(2) + "\n";
  } else if (o.csv) {
    out = bench_result_csv_header(reports.front().metrics.percentiles);
    for (const BenchReport& r : reports) out += bench_result_csv_row(r);
  } else {
    for (const BenchReport& r : reports) out += (out.empty() ? "" : "\n") + bench_report_text(r);
  }
  if (!o.save_requests.empty()) {
    std::string lines;
    for (std::size_t i = 0; i < reports.size(); ++i) {
      for (const auto& rec : reports[i].load->records) {
        nlohmann::ordered_json j = request_record_json(rec, reports[i].load->realtime_offset_ns);
        if (sweep) j["run"] = i;
        lines += j.dump() + "\n";
      }
    }
    write_file_atomically(o.save_requests, lines, o.inputs);
  }
  if (!o.save_result.empty()) {
    std::string text;
    if (o.result_format == "cuprobe") {
      text = cuprobe_json().dump(2) + "\n";
    } else if (o.result_format == "vllm") {
      // One object; a sweep writes one per line, as vLLM's --append-result does.
      for (const BenchReport& r : reports) text += bench_result_vllm(r).dump() + (sweep ? "\n" : "");
    } else {
      // SGLang appends its line to the file.
      std::ifstream in(o.save_result, std::ios::binary);
      if (in) text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      if (!text.empty() && text.back() != '\n') text += '\n';
      for (const BenchReport& r : reports) text += bench_result_sglang(r).dump() + "\n";
    }
    write_file_atomically(o.save_result, text, o.inputs);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
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
  std::string rate_text;
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
  app.add_option("--rate,--request-rate", rate_text,
                 "open loop: requests per second; a list (e.g. 2,4,8) runs once per rate (a sweep)");
  app.add_option("--arrival", arrival_text, "open-loop arrivals: poisson or constant")->capture_default_str();
  app.add_option("-n,--requests", requests, "measured requests to send (default 1000 unless --duration)");
  app.add_option("--duration", duration_text, "stop sending this long after the first measured request (e.g. 60s)");
  app.add_option("--warmup", warmup_text, "requests (N) or seconds (e.g. 20s) at the start that are not measured")
      ->capture_default_str();
  app.add_option("--input-len", input_len, "synthetic prompt length in words (~tokens)")->capture_default_str();
  app.add_option("--output-len", output_len, "max_tokens of every request")->capture_default_str();
  app.add_option("--dataset", dataset,
                 "JSONL prompts: {\"prompt\": ...} or {\"messages\": [...]}, optional max_tokens");
  // Workloads (datasets, token-true lengths): one block, see cli/workload_flags.h.
  WorkloadFlags workload_flags;
  add_workload_flags(app, workload_flags);
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
  // --- arrivals, SLOs, results, server metrics (issue 13; vLLM's and SGLang's names as aliases)
  double burstiness = 1.0, ramp_start_rps = 0, ramp_end_rps = 0;
  std::string ramp_text, percentiles_text = "50,90,99", save_result, result_format = "cuprobe", label;
  std::vector<std::string> goodput_texts, metadata_texts;
  bool csv = false, server_metrics = false;
  app.add_option("--burstiness", burstiness,
                 "open loop: gamma shape of the gaps between arrivals (1 = Poisson; <1 burstier; vLLM's)")
      ->capture_default_str();
  app.add_option("--ramp-up,--ramp-up-strategy", ramp_text,
                 "open loop: ramp the rate linear|exponential from --ramp-up-start-rps to --ramp-up-end-rps over -n "
                 "requests (instead of --rate)");
  app.add_option("--ramp-up-start-rps", ramp_start_rps, "with --ramp-up: the first request's rate");
  app.add_option("--ramp-up-end-rps", ramp_end_rps, "with --ramp-up: the last request's rate");
  app.add_option("--goodput", goodput_texts,
                 "SLOs in ms, e.g. ttft:200 tpot:50 e2e:2000 (as vLLM, one quoted value, or repeated); a request is "
                 "good when it meets every one (vLLM's goodput)")
      ->allow_extra_args(false);
  app.add_option("--percentiles,--metric-percentiles", percentiles_text,
                 "latency percentiles to report, e.g. 50,90,95,99,99.9")
      ->capture_default_str();
  app.add_flag("--server-metrics", server_metrics,
               "scrape the server's /metrics (vllm:, sglang:) at the steady window's start and end and report them");
  app.add_option("--save-result", save_result, "write the result to FILE in --result-format");
  app.add_option("--result-format", result_format,
                 "cuprobe (the --json report), vllm (vllm bench serve's JSON) or sglang (appends bench_serving's "
                 "JSONL line)")
      ->check(CLI::IsMember({"cuprobe", "vllm", "sglang"}))
      ->capture_default_str();
  app.add_flag("--csv", csv, "print one CSV row per rate (the whole run's figures) instead of the text report");
  app.add_option("--label", label, "a name for this run, kept in every result");
  app.add_option("--metadata", metadata_texts, "KEY=VALUE kept in every result; repeatable")->allow_extra_args(false);
  std::string sample_source;
  add_counter_source_option(app, sample_source, "with --sample: ");
  app.add_option("--save-requests", save_requests, "write one JSON line per request (all timestamps) to FILE");
  app.add_flag("--json", json, "print the report as JSON (schema cuprobe.bench/1)");
  app.add_flag("-q,--quiet", quiet, "no progress on stderr");
  std::vector<std::string> args = join_goodput_values(argc, argv);
  std::vector<char*> arg_ptrs;
  for (std::string& a : args) arg_ptrs.push_back(a.data());
  if (auto code = parse_args(app, static_cast<int>(arg_ptrs.size()), arg_ptrs.data())) return *code;

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
  // --- arrivals, SLOs, results, server metrics
  std::vector<double> rates;
  for (std::size_t pos = 0; !rate_text.empty() && pos <= rate_text.size();) {
    std::size_t end = std::min(rate_text.find(',', pos), rate_text.size());
    std::string item = rate_text.substr(pos, end - pos);
    pos = end + 1;
    char* stop = nullptr;
    double r = std::strtod(item.c_str(), &stop);
    if (item.empty() || *stop != '\0' || !(r > 0) || !std::isfinite(r))
      throw Error("--rate: '" + item + "' is not a positive number of requests/s", kExitUsage);
    rates.push_back(r);
  }
  RampUp ramp = RampUp::kNone;
  if (!ramp_text.empty() && !parse_ramp_up(ramp_text, ramp))
    throw Error("--ramp-up must be linear or exponential", kExitUsage);
  if (ramp != RampUp::kNone && !rates.empty())
    throw Error("--ramp-up sets the rate itself: leave --rate out (as vLLM)", kExitUsage);
  if (ramp == RampUp::kNone && (ramp_start_rps != 0 || ramp_end_rps != 0))
    throw Error("--ramp-up-start-rps and --ramp-up-end-rps need --ramp-up", kExitUsage);
  if (!(burstiness > 0)) throw Error("--burstiness must be positive", kExitUsage);
  if (burstiness != 1.0 && arrival == Arrival::kConstant)
    throw Error("--burstiness shapes random arrivals: not with --arrival constant", kExitUsage);
  MetricOptions metric_options;
  metric_options.percentiles = parse_percentiles(percentiles_text);
  for (const std::string& g : goodput_texts) parse_goodput(g, metric_options.goodput);
  std::vector<std::pair<std::string, std::string>> metadata;
  for (const std::string& m : metadata_texts) metadata.push_back(parse_metadata(m));
  if (json && csv) throw Error("--json and --csv exclude each other", kExitUsage);
  if (rates.size() > 1 && !profile_kind.empty())
    throw Error("--profile with a --rate sweep would profile every rate over one trace: run one rate", kExitUsage);
  if (rates.size() > 1 && sample)
    throw Error("--sample with a --rate sweep: run one rate per command to sample its steady window", kExitUsage);
  if (rates.empty()) rates.push_back(0);  // closed loop, or a ramp
  rate = rates.front();
  if (ramp != RampUp::kNone) rate = ramp_start_rps;
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
  opt.burstiness = burstiness;
  opt.ramp = ramp;
  opt.ramp_start_rps = ramp_start_rps;
  opt.ramp_end_rps = ramp_end_rps;
  if (ramp != RampUp::kNone) {
    std::uint64_t total = opt.duration_ns == 0 && opt.warmup_ns == 0 ? opt.requests + opt.warmup_requests : 0;
    ArrivalPlan plan{rate, burstiness, ramp, ramp_start_rps, ramp_end_rps, total, 1};
    if (std::string why = check_arrival_plan(plan); !why.empty()) throw Error(why, kExitUsage);
  }
  const std::int64_t run_deadline = mono_ns() + opt.run_timeout_ns;
  nlohmann::json extra_body;
  if (!extra_body_text.empty()) {
    extra_body = nlohmann::json::parse(extra_body_text, nullptr, false);
    if (!extra_body.is_object()) throw Error("--extra-body must be a JSON object", kExitUsage);
  }
  const HttpClientConfig client = http_client_config(client_flags, server);
  check_workload_flags_used(app, workload_flags);
  if (!workload_flags.dataset_name.empty() && app.count("--input-len") > 0) {
    throw Error(
        "--input-len is for the default prompts; with --dataset-name use --random-input-len (random) or the "
        "--gsp-* lengths (shared-prefix)",
        kExitUsage);
  }
  if (!workload_flags.dataset_name.empty() && !dataset.empty()) {
    throw Error("--dataset is --dataset-name jsonl --dataset-path FILE; give one of them", kExitUsage);
  }
  const std::vector<std::string> inputs = {dataset, workload_flags.dataset_path, workload_flags.tokenizer};
  for (const auto& out : {save_requests, save_result}) refuse_output_over_inputs(out, inputs);  // before any load
  std::optional<WorkloadPlan> workload_plan =
      plan_workload(workload_flags, opt.requests > 0 ? opt.requests + opt.warmup_requests : 0, output_len, seed);
  std::unique_ptr<PromptSource> prompts;
  if (!workload_plan) {
    prompts = dataset.empty() ? synthetic_prompts(input_len, output_len, seed)
                              : dataset_prompts(dataset, output_len, workload_flags.dataset_max_bytes);
  }
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
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  BuiltWorkload workload;
  if (workload_plan) {
    if (!quiet) std::fprintf(stderr, "bench: building the %s workload\n", workload_flags.dataset_name.c_str());
    workload = build_workload(*workload_plan, server, client, model);
    if (!workload.note.empty()) {
      notes.push_back(repair_utf8(workload.note));
      if (!quiet) std::fprintf(stderr, "bench: %s\n", workload.note.c_str());
    }
  }
  const std::string prompts_text = workload.workload ? workload.workload->describe() : prompts->describe();
  // A server that rejects stream_options or ignore_eos gets the run without them.
  FieldProbeResult probe = drop_rejected_fields(
      server, client, tpl,
      std::min(std::chrono::nanoseconds(std::chrono::seconds(30)), std::chrono::nanoseconds(opt.request_timeout_ns)));
  for (const std::string& field : probe.dropped) {
    std::string note = "the server rejected " + field + " (HTTP 400/422): requests are sent without it" +
                       (field == "stream_options" ? "; output tokens are counted from the stream"
                                                  : "; outputs may end before max_tokens");
    notes.push_back(note);
    if (!quiet) std::fprintf(stderr, "bench: %s\n", note.c_str());
  }
  RequestFactory factory = [&](std::uint64_t index) {
    Prompt p = workload.workload ? workload.workload->next(index) : prompts->prompt(index);
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
  settings["prompts"] = repair_utf8(prompts_text);
  settings["input_len"] =
      dataset.empty() && !workload_plan ? nlohmann::ordered_json(input_len) : nlohmann::ordered_json();
  if (workload.workload) settings["dataset"] = workload.settings;
  settings["prompt_lengths"] =
      workload.workload ? workload.settings["prompt_lengths"] : nlohmann::ordered_json("words");
  settings["output_len"] = output_len;
  settings["ignore_eos"] = tpl.ignore_eos;
  settings["stream_options"] = tpl.stream_options && api != ApiKind::kGenerate;
  settings["temperature"] = temperature;
  settings["seed"] = seed;
  settings["request_timeout_s"] = opt.request_timeout_ns / 1e9;
  settings["timeout_s"] = opt.run_timeout_ns / 1e9;
  settings["max_error_rate"] = max_error_rate;
  settings["fields_dropped"] = probe.dropped;
  settings["notes"] = notes;

  settings["burstiness"] =
      arrival == Arrival::kConstant ? nlohmann::ordered_json("inf") : nlohmann::ordered_json(burstiness);
  if (ramp != RampUp::kNone) {
    settings["ramp_up"] = ramp_text;
    settings["ramp_up_start_rps"] = ramp_start_rps;
    settings["ramp_up_end_rps"] = ramp_end_rps;
  }
  settings["percentiles"] = metric_options.percentiles;
  settings["server_metrics"] = server_metrics;

  // One run per rate (one for the closed loop or a ramp); each gets its own report.
  std::deque<LoadResult> loads;
  std::vector<BenchReport> reports;
  int exit_code = kExitOk;
  StopFlag stop;
  std::string gpus_note;
  nlohmann::ordered_json gpus;
  if (json || csv || !save_result.empty()) {
    DevicesReport devices = collect_devices(nullptr);
    if (devices.gpus.empty()) {
      gpus_note = devices.error.empty() ? "no GPU found on this host" : devices.error;
    } else {
      gpus = nlohmann::ordered_json::array();
      for (const DeviceReport& d : devices.gpus) {
        gpus.push_back({{"index", d.index}, {"name", d.name}, {"uuid", d.uuid}, {"memory_total", d.memory_total}});
      }
    }
  }
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  for (std::size_t run = 0; run < rates.size() && !stop.flag()[0]; ++run) {
    if (ramp == RampUp::kNone) {
      rate = rates[run];
      opt.rate = rate;
      settings["mode"] = rate > 0 ? "open_loop" : "closed_loop";
      settings["rate"] = rate;
      settings["arrival"] = rate > 0 ? arrival_text : "";
    }
    std::int64_t offset = monotonic_to_realtime_offset();
    std::unique_ptr<ProfilerControl> profiler;
    if (profile) profiler = std::make_unique<ProfilerControl>(server, client, *profile, offset);
    std::unique_ptr<ServerMetricsScraper> scraper;
    if (server_metrics) {
      scraper = std::make_unique<ServerMetricsScraper>(
          server, client, std::chrono::nanoseconds(std::min<std::int64_t>(opt.run_timeout_ns, 30'000'000'000)));
    }
    BenchObserver observer(profiler.get(), scraper.get(), quiet, opt.requests ? opt.requests + opt.warmup_requests : 0,
                           workload.workload.get());
    if (!quiet) {
      std::fprintf(stderr, "bench: %s%s, %s, %s\n", server.base().c_str(), tpl.path.c_str(),
                   rate > 0 ? ("open loop " + std::to_string(rate) + " req/s").c_str()
                            : ("concurrency " + std::to_string(opt.concurrency)).c_str(),
                   prompts_text.c_str());
    }
    opt.run_timeout_ns = std::max<std::int64_t>(1'000'000, run_deadline - mono_ns());
    LoadResult& load = loads.emplace_back(run_load(opt, factory, observer, stop.flag()));
    offset = load.realtime_offset_ns;

    BenchReport& report = reports.emplace_back();
    report.settings = settings;
    report.load = &load;
    report.max_error_rate = max_error_rate;
    report.metrics = metric_options;
    report.all = whole_run_metrics(load.records, metric_options);
    report.window = find_steady_window(load.records);
    report.steady = window_metrics(load.records, report.window, metric_options);
    if (scraper) report.server_metrics = scraper->finish();
    BenchIdentityInput identity{kVersion, host, label, metadata, load.start_ns + offset, gpus, gpus_note};
    report.identity = bench_identity_json(identity);
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
    int code = run_exit_code(report, server, timeout_text);
    if (exit_code == kExitOk || (exit_code == kExitThresholdTripped && code == kExitFailed)) exit_code = code;
    if (load.run_timed_out) break;  // the deadline covers the whole sweep
  }

  if (reports.empty()) return kExitFailed;  // interrupted before the first run started
  write_bench_outputs(reports, BenchOutputs{json, csv, save_requests, save_result, result_format, inputs});
  return exit_code;
}

const VerbRegistration kRegistration{"bench",
                                     "streaming load at concurrency C or rate R, with latency metrics, "
                                     "server profiler and counters from the steady state",
                                     &run_bench};

}  // namespace
}  // namespace cuprobe
