// cuprobe sample: device-wide hardware counters of one or all GPUs, streamed as
// CSV or JSONL, for a duration, while a command runs, or until SIGINT/SIGTERM.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/counter_flags.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "collect/counters/counter_refusal.h"
#include "collect/counters/counter_summary.h"
#include "collect/counters/device_sampler.h"
#include "collect/counters/metric_catalog.h"
#include "collect/counters/metric_presets.h"
#include "collect/counters/pm_backend.h"
#include "collect/counters/sampler_source.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/say.h"
#include "common/start_command.h"
#include "common/stop_signals.h"
#include "common/units.h"
#include "report/counter_summary_report.h"
#include "report/metric_list.h"
#include "report/sample_format.h"
#include "report/sample_live_view.h"

namespace cuprobe {
namespace {

// Writes to a file through a temporary file renamed on close (AtomicFile); or to stdout.
class Output {
 public:
  explicit Output(const std::string& path) {
    if (!path.empty() && path != "-") file_.emplace(path);
  }
  bool write(const std::string& text) {
    if (failed_) return false;
    if (file_)
      failed_ = !file_->stream().write(text.data(), static_cast<std::streamsize>(text.size()));
    else
      failed_ = !text.empty() && std::fwrite(text.data(), 1, text.size(), stdout) != text.size();
    return !failed_;
  }
  bool flush() {
    if (!failed_) failed_ = file_ ? !file_->stream().flush() : std::fflush(stdout) != 0;
    return !failed_;
  }
  bool failed() const { return failed_; }
  // Renames the temporary file into place; a failed output leaves the file as it was.
  void close() {
    if (!file_) {
      flush();
      return;
    }
    file_->commit();  // a failed write: its errno, and nothing left behind
  }

 private:
  std::optional<AtomicFile> file_;
  bool failed_ = false;
};

int list_metrics(const std::string& chip_option, const std::string& preset) {
  std::string chip = chip_option;
  if (chip.empty()) {
    auto backend = make_cupti_backend();
    if (!backend) {
      throw Error("built without CUPTI: metric lists need the CUPTI host libraries", kExitCountersUnavailable);
    }
    BackendStatus st = backend->initialize();
    if (!st.ok()) {
      throw Error(counter_refusal_message(st, -1) + " (or name a chip: --list-metrics --chip GH100)",
                  counter_refusal_exit_code(st.code));
    }
    if (backend->device_count() <= 0) {
      throw Error("no CUDA GPU visible: name a chip, e.g. --list-metrics --chip GH100", kExitCountersUnavailable);
    }
    st = backend->chip_name(0, chip);
    if (!st.ok()) throw counter_refusal(st, 0);
  }
  std::string out = format_metric_list(chip, preset, list_chip_metrics(chip));  // validates the chip
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

struct SampleFlags {
  CounterFlags counters;
  std::string duration, metrics, chip, format = "csv", output, summary_json;
  bool list = false, live = false, quiet = false;
};

void declare(CLI::App& app, SampleFlags& f) {
  add_gpu_flag(app, f.counters, "GPUs to sample: all, or indices like 0,1 (CUDA ordinals)")->capture_default_str();
  add_interval_flag(app, f.counters, "sample interval, 1ms to 10s")->capture_default_str();
  app.add_option("--duration", f.duration, "stop after this long (e.g. 30s, 2m)");
  add_preset_flag(app, f.counters,
                  "metric preset: triage (device-level, cheap) or pipes (adds tensor pipe per kind and FMA; costs "
                  "16-39% of a core per GPU)")
      ->capture_default_str();
  app.add_option("--metrics", f.metrics, "raw CUPTI metric names a,b,c; replace the preset");
  app.add_flag("--list-metrics", f.list, "print the preset columns and the metrics a chip offers, then exit");
  app.add_option("--chip", f.chip, "chip for --list-metrics (GH100, GB100, GB202, ...); default: GPU 0's");
  add_source_flag(app, f.counters);
  app.add_option("--format", f.format, "line format: csv or jsonl")->capture_default_str();
  app.add_option("-o,--output", f.output, "write lines to FILE (written to a temporary file, renamed at the end)");
  app.add_option("--summary-json", f.summary_json, "also write the end summary as JSON to FILE");
  app.add_flag("--live", f.live, "redraw a compact per-GPU view when stdout is a terminal (lines go to -o only)");
  app.add_flag("-q,--quiet", f.quiet, "no summary table on stderr");
}

struct SamplePlan {
  CounterPlan counters;
  SampleFormat format = SampleFormat::kCsv;
  std::optional<std::chrono::nanoseconds> duration;
  std::vector<std::string> command;
  bool live_view = false;  // --live, and stdout is a terminal
  std::string output, summary_json, interval_text;
  bool quiet = false;
};

SamplePlan plan(const SampleFlags& f, std::vector<std::string> command) {
  if (!f.chip.empty()) throw Error("--chip only goes with --list-metrics", kExitUsage);
  SamplePlan p;
  p.counters = plan_counters(f.counters);
  if (!f.metrics.empty()) p.counters.config.metrics = parse_metric_list(f.metrics);
  p.format = parse_sample_format(f.format);
  if (!f.duration.empty()) {
    p.duration = parse_duration(f.duration);
    if (p.duration->count() <= 0) throw Error("--duration must be positive", kExitUsage);
    if (!command.empty()) throw Error("give either --duration or a command after --, not both", kExitUsage);
  }
  if (!command.empty() && command[0].empty()) throw Error("empty command after --", kExitUsage);
  p.command = std::move(command);
  p.live_view = f.live && isatty(STDOUT_FILENO);
  if (f.live && !p.live_view) say("sample", "--live ignored: stdout is not a terminal");
  if (p.live_view && f.output.empty()) say("sample", "--live without -o: sample lines are not kept");
  p.output = f.output;
  p.summary_json = f.summary_json;
  p.interval_text = f.counters.interval;
  p.quiet = f.quiet;
  return p;
}

// Where the rows go: the line file (or stdout), the live view, the summary.
class SampleSink {
 public:
  SampleSink(const SamplePlan& plan, const DeviceSampler& sampler)
      : sampler_(sampler),
        writer_(plan.format, sampler.metric_names()),
        summarizer_(sampler.metric_names()),
        live_view_(plan.live_view) {
    if (!plan.live_view || !plan.output.empty()) out_.emplace(plan.output);
  }
  void write_header() {
    if (out_ && !out_->write(writer_.header())) throw Error("cannot write output");
  }
  void emit(std::vector<CounterRow>&& batch) {
    if (batch.empty()) return;
    summarizer_.add(batch);
    std::string text;
    for (const auto& r : batch) {
      text += writer_.line(r);
      latest_[r.gpu] = r;
    }
    rows_ += static_cast<std::int64_t>(batch.size());
    if (out_ && !closed_ && !(out_->write(text) && out_->flush())) closed_ = true;
    if (live_view_) {
      std::string view = sample_live_view(sampler_.metric_names(), latest_, rows_, sampler_.lost_samples());
      std::fwrite(view.data(), 1, view.size(), stdout);
      std::fflush(stdout);
    }
  }
  bool closed() const { return closed_; }
  std::int64_t rows() const { return rows_; }
  void close() {
    if (out_) out_->close();
  }
  CounterSummary summary(std::int64_t lost) const { return summarizer_.summary(lost); }

 private:
  const DeviceSampler& sampler_;
  SampleLineWriter writer_;
  CounterSummarizer summarizer_;
  bool live_view_;
  std::optional<Output> out_;
  std::map<int, CounterRow> latest_;
  std::int64_t rows_ = 0;
  bool closed_ = false;
};

void announce(const DeviceSampler& sampler, const SamplePlan& p) {
  std::string gpus, chips;
  for (int g : sampler.gpus()) gpus += (gpus.empty() ? "" : ",") + std::to_string(g);
  for (const auto& c : sampler.chips()) chips += (chips.empty() ? "" : ",") + c;
  if (!p.quiet) {
    say("sample", "GPU %s (%s), %zu metrics, every %s", gpus.c_str(), chips.c_str(), sampler.metric_names().size(),
        p.interval_text.c_str());
  }
  std::string skipped;
  for (const auto& m : sampler.skipped_metrics()) skipped += (skipped.empty() ? "" : ", ") + m;
  if (!skipped.empty()) say("sample", "left out (not exposed by this GPU): %s", skipped.c_str());
}

struct SampleEnd {
  std::string ended_by;
  std::string stop_error;          // sampling broke
  std::optional<int> wait_status;  // the command's, when one ran and ended
};

// Samples until the command exits, the duration passes, a signal, the output closes or sampling breaks;
// then ends the command (passing the signal on) and drains the sampler.
SampleEnd sample_until_done(DeviceSampler& sampler, SampleSink& sink, const SamplePlan& p) {
  StopFlag stop;
  signal(SIGPIPE, SIG_IGN);
  sampler.start();
  pid_t child = -1;
  try {
    if (!p.command.empty()) child = start_command(p.command);
  } catch (...) {
    sampler.stop();
    throw;
  }
  auto began = std::chrono::steady_clock::now();
  auto tick = std::min<std::chrono::nanoseconds>(
      std::chrono::milliseconds(100),
      std::max<std::chrono::nanoseconds>(p.counters.config.interval, std::chrono::milliseconds(20)));
  SampleEnd end;
  int status = 0;
  for (;;) {
    timespec ts{static_cast<time_t>(tick.count() / 1000000000), static_cast<long>(tick.count() % 1000000000)};
    nanosleep(&ts, nullptr);
    try {
      sink.emit(sampler.drain());
    } catch (const Error& e) {
      end.stop_error = e.what();
      end.ended_by = "sampling error";
      break;
    }
    if (sink.closed()) {
      end.ended_by = "output closed";
      break;
    }
    if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
      end.wait_status = status;
      end.ended_by = "command exited";
      break;
    }
    if (stop.signal()) {
      end.ended_by = stop.signal() == SIGINT ? "SIGINT" : "SIGTERM";
      break;
    }
    if (p.duration && std::chrono::steady_clock::now() - began >= *p.duration) {
      end.ended_by = "duration";
      break;
    }
  }
  if (child > 0 && !end.wait_status) {
    if (!end.stop_error.empty()) {
      // Sampling broke: say so now, but let the command finish its work.
      say("sample", "sampling stopped (%s); waiting for the command to end", end.stop_error.c_str());
    } else {
      // Signalled, or the output closed, while the command runs: pass the signal on.
      kill(child, stop.signal() ? stop.signal() : SIGTERM);
    }
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    end.wait_status = status;
  }
  sampler.stop();
  try {
    sink.emit(sampler.drain());
  } catch (const Error& e) {
    if (end.stop_error.empty()) end.stop_error = e.what();
  }
  return end;
}

int run(const SamplePlan& p) {
  auto sampler = open_counter_sampler(p.counters.config, p.counters.source, true);
  SampleSink sink(p, *sampler);
  announce(*sampler, p);
  sink.write_header();
  SampleEnd end = sample_until_done(*sampler, sink, p);
  std::int64_t lost = sampler->lost_samples();
  sink.close();

  CounterSummary summary = sink.summary(lost);
  if (!p.quiet) say("sample", "ended by %s\n%s", end.ended_by.c_str(), format_counter_summary(summary).c_str());
  if (lost > 0 || sampler->restarts() > 0) {
    say("sample",
        "warning: %lld samples lost (hardware buffer overflow or a stalled stream); sampling restarted %d times",
        static_cast<long long>(lost), sampler->restarts());
  }
  std::optional<int> command_exit;
  if (end.wait_status) command_exit = exit_code_of(*end.wait_status);
  if (!p.summary_json.empty()) {
    SampleRunFacts facts{p.counters.config.interval.count(),
                         sampler->raw_metric_names(),
                         sampler->chips(),
                         sampler->skipped_metrics(),
                         end.ended_by,
                         sampler->restarts(),
                         command_exit};
    write_file_atomically(p.summary_json, sample_summary_json(summary, facts).dump(2) + "\n");
  }
  if (!end.stop_error.empty()) throw Error(end.stop_error);
  if (sink.closed()) throw Error("output closed after " + std::to_string(sink.rows()) + " samples");
  if (sink.rows() == 0) say("sample", "warning: no samples were decoded");
  return command_exit.value_or(kExitOk);
}

int run_sample(int argc, char** argv) {
  CommandAfterDashes split = split_at_dashes(argc, argv);
  CLI::App app{
      "Samples the hardware counters of one or all GPUs (device-wide: every process's kernels) and "
      "streams one line per sample.\n"
      "  cuprobe sample [OPTIONS] [--duration 30s | -- CMD ARGS...]\n"
      "Without --duration or a command it runs until SIGINT/SIGTERM.",
      "cuprobe sample"};
  SampleFlags flags;
  declare(app, flags);
  if (auto code = parse_args(app, split.own_argc, argv)) return *code;
  if (flags.list) return list_metrics(flags.chip, flags.counters.preset);
  return run(plan(flags, std::move(split.command)));
}

const VerbRegistration kRegistration{"sample", "stream a GPU's hardware counters (device-wide, any process)",
                                     &run_sample};

}  // namespace
}  // namespace cuprobe
