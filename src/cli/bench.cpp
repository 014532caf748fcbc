// cuprobe bench URL: a streaming load generator for OpenAI-compatible servers
// (/v1/completions, /v1/chat/completions) and SGLang's /generate, with the
// server's profiler and the device counters captured over the steady state.
// One report (text, or JSON "cuprobe.bench/1"), one clock for every timestamp.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/bench_flags.h"
#include "cli/bench_observer.h"
#include "cli/bench_peer_args.h"
#include "cli/bench_plan.h"
#include "cli/parse_args.h"
#include "cli/sampler_thread.h"
#include "cli/verb.h"
#include "collect/counters/counter_summary.h"
#include "collect/counters/sampler_source.h"
#include "collect/device/device_inventory.h"
#include "common/atomic_file.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/output_target.h"
#include "common/safe_file_name.h"
#include "common/say.h"
#include "common/secrets.h"
#include "common/stop_signals.h"
#include "common/utf8.h"
#include "common/version.h"
#include "load/field_probe.h"
#include "load/load_runner.h"
#include "load/profiler_control.h"
#include "load/readiness.h"
#include "load/request_builder.h"
#include "load/server_metrics.h"
#include "load/stream_decoder.h"
#include "load/workload.h"
#include "load/workload_factory.h"
#include "net/http_url.h"
#include "report/bench_output.h"
#include "report/bench_report.h"
#include "report/bench_result.h"
#include "report/bench_settings.h"
#include "report/counter_summary_report.h"

namespace cuprobe {
namespace {

// A failed request of a run where no measured request ever got a connection
// (the server, or the proxy's tunnel to it, is unreachable: exit 1, not a
// threshold); nullptr otherwise.
const RequestRecord* never_connected(const std::vector<RequestRecord>& records) {
  const RequestRecord* first = nullptr;
  for (const RequestRecord& r : records) {
    if (r.warmup) continue;
    if (!r.error.starts_with("connect_") && r.error != "proxy_failed") return nullptr;
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

// The exit code of one run (a sweep returns the worst): 1 beats 4.
int run_exit_code(const BenchReport& report, const HttpUrl& server, const std::string& timeout_text) {
  const LoadResult& load = *report.load;
  if (load.run_timed_out) {
    say("bench", "the run exceeded --timeout %s; the report covers what finished", timeout_text.c_str());
    return kExitFailed;
  }
  if (load.stopped) return kExitFailed;
  if (const RequestRecord* refused = never_connected(load.records)) {
    say("bench", "cannot reach %s: %s", server.base().c_str(), refused->error_detail.c_str());
    return kExitFailed;
  }
  for (const auto& [field, option] :
       {std::pair{"stream_options", "--no-stream-options"}, std::pair{"ignore_eos", "--no-ignore-eos"}}) {
    if (rejected_field(load.records, field)) {
      say("bench", "the server rejected %s; try %s", field, option);
    }
  }
  if (!error_rate_passed(report)) {
    say("bench", "error rate %.1f%% is above --max-error-rate %.1f%%", 100 * error_rate(report.all),
        100 * report.max_error_rate);
    return kExitThresholdTripped;
  }
  return kExitOk;
}

// Every output checked before the first request (issue 39): --result-dir created, each
// file's directory proven writable; a run's measurements are never lost to a typo.
void check_outputs(const BenchOutputs& o) {
  if (!o.save_requests.empty()) check_writable(o.save_requests);
  for (const ResultTarget& t : o.results) {
    if (!t.dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(t.dir, ec);
      if (ec) throw Error("--result-dir " + t.dir + ": " + ec.message());
    }
    // vLLM's default name is made when the result is known: its directory is what can be checked now.
    check_writable(t.path.empty() ? (t.dir.empty() ? "." : t.dir) + "/result.json" : t.path,
                   t.append || t.format == "sglang");
  }
}

// One result file: vLLM's default name made now (the model and the date are known; the
// server's model id made safe as a file name); appended to where asked, the target never read.
void write_result(const std::vector<BenchReport>& reports, const ResultTarget& t, const BenchOutputs& o) {
  std::string path = t.path;
  if (path.empty()) path = (t.dir.empty() ? "" : t.dir + "/") + safe_file_name(vllm_result_filename(reports.back()));
  // SGLang appends its line; only the target's last byte is read (a '-', a FIFO: none).
  std::string tail = t.append || t.format == "sglang" ? last_byte_of(path) : "";
  std::string text = redact_secrets(bench_saved_result(reports, t.format, tail, o.peer));
  if (tail.empty())
    write_file_atomically(path, text, o.inputs);
  else
    append_to_file(path, std::string_view(text).substr(tail.size()), o.inputs);
}

// stdout (text, --json or --csv), --save-requests and the result files, for one run or a sweep:
// stdout first, so a file that fails after the run loses no measurement.
void write_bench_outputs(const std::vector<BenchReport>& reports, const BenchOutputs& o) {
  std::string out = redact_secrets(bench_stdout(reports, o.json, o.csv));
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (!o.save_requests.empty())
    write_file_atomically(o.save_requests, redact_secrets(bench_requests_jsonl(reports)), o.inputs);
  for (const ResultTarget& t : o.results) write_result(reports, t, o);
}

// The counters over the whole run, started before any load is sent: exit 3 when they are
// unavailable, unless --sample-optional (then `note` says why there are none).
std::unique_ptr<SamplerThread> start_counters(const BenchPlan& p, std::string& note) {
  if (!p.counters) return nullptr;
  try {
    return std::make_unique<SamplerThread>(open_counter_sampler(p.counters->config, p.counters->source, true));
  } catch (const Error& e) {
    if (!p.sample_optional || e.exit_code() != kExitCountersUnavailable) throw;
    note = std::string("unavailable (") + e.what() + ")";
    if (!p.quiet) say("bench", "--sample-optional: counters %s; running without", note.c_str());
    return nullptr;
  }
}

// Waits until the server is ready (unless --no-wait); the model is the first it serves when none was given.
void wait_for_server(const BenchPlan& p, RequestTemplate& tpl) {
  if (!p.wait_timeout_ns) return;
  // --timeout bounds everything, the readiness wait included.
  std::int64_t wait_ns = std::min<std::int64_t>(*p.wait_timeout_ns, p.run_deadline - mono_ns());
  bool bounded_by_run = wait_ns < *p.wait_timeout_ns;
  ReadinessResult ready =
      wait_until_ready(p.server, p.client, std::chrono::nanoseconds(std::max<std::int64_t>(wait_ns, 1)),
                       std::chrono::seconds(1), [&](double t, const std::string& state) {
                         if (!p.quiet) say("bench", "[%6.1fs] %s", t, state.c_str());
                       });
  if (!ready.ready) {
    throw Error("server not ready after " + (bounded_by_run ? p.timeout_text + " (--timeout)" : p.wait_timeout_text) +
                "; last seen: " + ready.last.state);
  }
  if (tpl.model.empty() && tpl.api != ApiKind::kGenerate && !ready.last.models.empty()) {
    tpl.model = ready.last.models.front();
  }
}

// Builds the workload (it may ask the server to count tokens) and drops the request fields
// the server rejects; returns the settings the report names.
BenchSettings prepare_requests(const BenchPlan& p, RequestTemplate& tpl, BuiltWorkload& workload) {
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  for (const std::string& note : p.notes) {
    notes.push_back(note);
    if (!p.quiet) say("bench", "%s", note.c_str());
  }
  if (p.workload) {
    if (!p.quiet) say("bench", "building the %s workload", p.dataset_name.c_str());
    workload = build_workload(*p.workload, p.server, p.client, tpl.model);
    if (!workload.note.empty()) {
      notes.push_back(repair_utf8(workload.note));
      if (!p.quiet) say("bench", "%s", workload.note.c_str());
    }
  }
  // A server that rejects stream_options or ignore_eos gets the run without them.
  FieldProbeResult probe = drop_rejected_fields(p.server, p.client, tpl,
                                                std::min(std::chrono::nanoseconds(std::chrono::seconds(30)),
                                                         std::chrono::nanoseconds(p.load.request_timeout_ns)));
  for (const std::string& field : probe.dropped) {
    std::string note = "the server rejected " + field + " (HTTP 400/422): requests are sent without it" +
                       (field == "stream_options" ? "; output tokens are counted from the stream"
                                                  : "; outputs may end before max_tokens");
    notes.push_back(note);
    if (!p.quiet) say("bench", "%s", note.c_str());
  }
  std::optional<nlohmann::ordered_json> dataset;
  if (workload.workload) dataset = workload.settings;
  return BenchSettings{.url = p.server.base() + p.server.path,
                       .endpoint = p.endpoint,
                       .model = tpl.model,
                       .prompts = workload.workload ? workload.workload->describe() : p.prompts->describe(),
                       .backend = p.backend,
                       .model_id = p.model_id,
                       .tokenizer = p.tokenizer,
                       .max_concurrency = p.max_concurrency,
                       .sampling = nlohmann::ordered_json::parse(tpl.sampling.dump()),
                       .arrival = p.arrival,
                       .ramp_up = p.ramp_up,
                       .input_len = p.input_len,
                       .dataset = std::move(dataset),
                       .output_len = p.output_len,
                       .ignore_eos = tpl.ignore_eos,
                       .stream_options = tpl.stream_options,
                       .temperature = tpl.style == BodyStyle::kSglang ? tpl.temperature.value_or(0.0) : tpl.temperature,
                       .request_body = body_style_name(tpl.style),
                       .max_error_rate = p.max_error_rate,
                       .fields_dropped = probe.dropped,
                       .notes = std::move(notes),
                       .percentiles = p.metrics.percentiles,
                       .server_metrics = p.server_metrics};
}

// The identity every result names; the GPUs only where a result is written.
BenchIdentityInput bench_identity(const BenchPlan& p) {
  BenchIdentityInput id;
  id.version = kVersion;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  id.host = host;
  id.label = p.label;
  id.metadata = p.metadata;
  if (p.outputs.json || p.outputs.csv || !p.outputs.results.empty()) set_identity_gpus(id, collect_devices(nullptr));
  return id;
}

// The counters of the steady window (else the whole run), in realtime ns.
void add_counters(BenchReport& report, SamplerThread& sampler, std::int64_t offset) {
  std::vector<CounterRow> rows = sampler.finish();
  std::int64_t from = (report.window.valid ? report.window.start_ns : report.all.start_ns) + offset;
  std::int64_t to = (report.window.valid ? report.window.end_ns : report.all.end_ns) + offset;
  std::vector<CounterRow> inside;
  for (auto& r : rows) {
    if (r.start_ns >= from && r.end_ns <= to) inside.push_back(std::move(r));
  }
  CounterSummary summary = summarize_counters(sampler.metric_names(), inside, sampler.lost());
  report.sample = counter_window_json(summary, report.window.valid, from, to);
  report.sample_text = format_counter_summary(summary);
  if (inside.empty()) report.sample_note = "no counter sample fell inside the window (it is shorter than --interval?)";
}

// One run per rate (one for the closed loop or a ramp), each with its own report.
class BenchRuns {
 public:
  BenchRuns(const BenchPlan& p, const RequestTemplate& tpl, const BenchSettings& settings, RequestFactory factory,
            RequestFactory warmup_factory, Workload* workload, SamplerThread* sampler, std::string sample_note)
      : p_(p),
        tpl_(tpl),
        settings_(settings),
        factory_(std::move(factory)),
        warmup_factory_(std::move(warmup_factory)),
        workload_(workload),
        sampler_(sampler),
        sample_note_(std::move(sample_note)),
        identity_(bench_identity(p)),
        run_timeout_ns_(p.load.run_timeout_ns) {}

  void replay_times_of(const BuiltWorkload& built) { built_ = &built; }

  // The worst exit code of the runs (1 beats 4).
  int run_all() {
    int exit_code = kExitOk;
    for (std::size_t run = 0; run < p_.rates.size() && !stop_.flag()[0]; ++run) {
      LoadOptions opt = p_.load;
      if (opt.ramp == RampUp::kNone) opt.rate = p_.rates[run];
      if (built_) apply_workload_arrivals(*built_, opt);  // a timed trace sends at its recorded times
      const LoadResult& load = run_one(opt);
      int code = run_exit_code(reports_.back(), p_.server, p_.timeout_text);
      if (exit_code == kExitOk || (exit_code == kExitThresholdTripped && code == kExitFailed)) exit_code = code;
      if (load.run_timed_out) break;  // the deadline covers the whole sweep
    }
    return exit_code;
  }
  const std::vector<BenchReport>& reports() const { return reports_; }

 private:
  // The peers' warm-up (vLLM's --num-warmups, SGLang's --warmup-requests): that many
  // requests of the first prompt, at most --max-concurrency in flight (else all at
  // once), run to completion before the measured run starts (vllm/benchmarks/serve.py
  // benchmark(): gather(warmup_tasks), then "Starting main benchmark run...").
  // Their records, flagged, are never measured; their connections count with the run's.
  LoadResult run_warmup(const LoadOptions& opt) {
    const std::uint64_t n = opt.warmup_requests;
    LoadOptions w = opt;
    w.rate = 0;
    w.ramp = RampUp::kNone;
    w.arrival_offsets_ns.clear();
    w.requests = n;
    w.warmup_requests = 0;
    w.duration_ns = 0;
    const std::uint64_t cap = opt.concurrency > 0 ? static_cast<std::uint64_t>(opt.concurrency) : n;
    w.concurrency = static_cast<int>(std::min<std::uint64_t>({cap, n, 1'000'000}));
    w.run_timeout_ns = std::max<std::int64_t>(1'000'000, p_.run_deadline - mono_ns());
    if (!p_.quiet) {
      say("bench", "warm-up: %llu request%s of the first prompt, %d in flight; the measured run starts when they end",
          static_cast<unsigned long long>(n), n == 1 ? "" : "s", w.concurrency);
    }
    LoadObserver silent;
    LoadResult r = run_load(w, warmup_factory_, silent, stop_.flag());
    std::uint64_t ok = 0;
    for (RequestRecord& rec : r.records) {
      rec.warmup = true;
      ok += rec.ok() ? 1 : 0;
    }
    if (!p_.quiet) {
      say("bench", "warm-up done: %llu ok, %llu failed in %.2fs; starting the measured run",
          static_cast<unsigned long long>(ok), static_cast<unsigned long long>(r.records.size() - ok),
          static_cast<double>(r.end_ns - r.start_ns) / 1e9);
    }
    // SGLang (serving.py benchmark()) stops when no warm-up request succeeded, and
    // waits a second before the measured run.
    if (tpl_.style == BodyStyle::kSglang && !r.stopped) {
      if (ok == 0 && !r.records.empty()) {
        const RequestRecord& first = r.records.front();
        throw Error("warm-up failed: none of " + std::to_string(r.records.size()) + " requests succeeded (" +
                    first.error + ": " + first.error_detail + "); SGLang stops here too");
      }
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return r;
  }

  const LoadResult& run_one(LoadOptions opt) {
    if (!p_.quiet) {
      say("bench", "%s%s, %s, %s", p_.server.base().c_str(), tpl_.path.c_str(),
          opt.rate > 0 ? ("open loop " + std::to_string(opt.rate) + " req/s").c_str()
                       : ("concurrency " + std::to_string(opt.concurrency)).c_str(),
          settings_.prompts.c_str());
    }
    nlohmann::ordered_json settings = bench_settings_json(settings_, opt);  // the warm-up as asked for
    LoadResult warmup;
    if (opt.warmup_requests > 0) {
      warmup = run_warmup(opt);
      opt.warmup_requests = 0;  // done: the measured run has none
    }
    std::int64_t offset = monotonic_to_realtime_offset();
    std::unique_ptr<ProfilerControl> profiler;
    if (p_.profile) profiler = std::make_unique<ProfilerControl>(p_.server, p_.client, *p_.profile, offset);
    std::unique_ptr<ServerMetricsScraper> scraper;
    if (p_.server_metrics) {
      scraper = std::make_unique<ServerMetricsScraper>(
          p_.server, p_.client, std::chrono::nanoseconds(std::min<std::int64_t>(run_timeout_ns_, 30'000'000'000)));
    }
    BenchObserver observer(profiler.get(), scraper.get(), p_.quiet, opt.requests, workload_);
    run_timeout_ns_ = opt.run_timeout_ns = std::max<std::int64_t>(1'000'000, p_.run_deadline - mono_ns());
    LoadResult& load = loads_.emplace_back();
    if (stop_.flag()[0])
      load.stopped = true;  // interrupted during the warm-up
    else
      load = run_load(opt, factory_, observer, stop_.flag());
    load.records.insert(load.records.begin(), std::make_move_iterator(warmup.records.begin()),
                        std::make_move_iterator(warmup.records.end()));
    load.connections_opened += warmup.connections_opened;
    load.requests_reused += warmup.requests_reused;
    load.retries += warmup.retries;
    offset = load.realtime_offset_ns;
    BenchReport& report = reports_.emplace_back();
    report.settings = std::move(settings);
    report.load = &load;
    report.max_error_rate = p_.max_error_rate;
    report.metrics = p_.metrics;
    report.all = whole_run_metrics(load.records, p_.metrics);
    report.window = find_steady_window(load.records);
    report.steady = window_metrics(load.records, report.window, p_.metrics);
    if (scraper) report.server_metrics = scraper->finish();
    identity_.start_realtime_ns = load.start_ns + offset;
    report.identity = bench_identity_json(identity_);
    if (profiler) report.profile = profiler->finish();
    if (sampler_)
      add_counters(report, *sampler_, offset);
    else
      report.sample_note = sample_note_;
    return load;
  }

  const BenchPlan& p_;
  const RequestTemplate& tpl_;
  const BenchSettings& settings_;
  RequestFactory factory_, warmup_factory_;
  Workload* workload_;
  const BuiltWorkload* built_ = nullptr;
  SamplerThread* sampler_;
  std::string sample_note_;
  StopFlag stop_;  // before the GPUs are listed (bench_identity), as the runs
  BenchIdentityInput identity_;
  std::int64_t run_timeout_ns_;  // the previous run's bound (the planned one at first)
  std::deque<LoadResult> loads_;
  std::vector<BenchReport> reports_;
};

int run(const BenchPlan& p) {
  check_outputs(p.outputs);
  std::string sample_note;
  std::unique_ptr<SamplerThread> sampler = start_counters(p, sample_note);
  RequestTemplate tpl = p.request;
  wait_for_server(p, tpl);
  BuiltWorkload workload;
  const BenchSettings settings = prepare_requests(p, tpl, workload);
  RequestFactory factory = [&](std::uint64_t index) {
    Prompt prompt = workload.workload ? workload.workload->next(index) : p.prompts->prompt(index);
    return OutgoingRequest(build_http_request(tpl, prompt, index), prompt.max_tokens, prompt.expected_prompt_tokens);
  };
  // The warm-up sends the first prompt, without a request id (vLLM's test_input has none).
  RequestTemplate warmup_tpl = tpl;
  warmup_tpl.request_id_prefix.clear();
  RequestFactory warmup_factory = [&](std::uint64_t index) {
    Prompt prompt = workload.workload ? workload.workload->first() : p.prompts->prompt(0);
    // SGLang's warm-up asks for at most 32 tokens (min(test_request.output_len, 32)).
    if (warmup_tpl.style == BodyStyle::kSglang) prompt.max_tokens = std::min<std::int64_t>(prompt.max_tokens, 32);
    return OutgoingRequest(build_http_request(warmup_tpl, prompt, index), prompt.max_tokens,
                           prompt.expected_prompt_tokens);
  };
  BenchRuns runs(p, tpl, settings, factory, warmup_factory, workload.workload.get(), sampler.get(), sample_note);
  runs.replay_times_of(workload);
  int exit_code = runs.run_all();
  if (runs.reports().empty()) return kExitFailed;  // interrupted before the first run started
  write_bench_outputs(runs.reports(), p.outputs);
  return exit_code;
}

int run_bench(int argc, char** argv) {
  CLI::App app{
      "Streaming load against an LLM server: throughput, TTFT/ITL/TPOT/E2E over the whole run and the "
      "steady state, with the server's profiler (--profile) and device counters (--sample) captured "
      "inside the steady window. http:// or https:// (--cacert, --insecure)."};
  app.name(argv[0]);
  BenchFlags flags;
  declare_bench_flags(app, flags);
  std::vector<std::string> known;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) known.push_back("--" + l);
  }
  std::vector<std::string> args = normalize_bench_args(argc, argv, known);
  std::vector<char*> arg_ptrs;
  for (std::string& a : args) arg_ptrs.push_back(a.data());
  if (auto code = parse_args(app, static_cast<int>(arg_ptrs.size()), arg_ptrs.data())) return *code;
  return run(plan_bench(flags, app));
}

const VerbRegistration kRegistration{"bench",
                                     "streaming load at concurrency C or rate R, with latency metrics, "
                                     "server profiler and counters from the steady state",
                                     &run_bench};

}  // namespace
}  // namespace cuprobe
