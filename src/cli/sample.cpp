// cuprobe sample: device-wide hardware counters of one or all GPUs, streamed as
// CSV or JSONL, for a duration, while a command runs, or until SIGINT/SIGTERM.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/parse_args.h"
#include "cli/sampler_flags.h"
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
#include "common/start_command.h"
#include "common/stop_signals.h"
#include "common/units.h"
#include "report/counter_summary_report.h"
#include "report/sample_format.h"

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

std::string live_view(const std::vector<std::string>& names, const std::map<int, CounterRow>& latest, std::int64_t rows,
                      std::int64_t lost) {
  std::string out = "\x1b[H\x1b[2J";
  char line[256];
  std::snprintf(line, sizeof line, "cuprobe sample: %lld samples, %lld lost   (Ctrl-C ends)\n",
                static_cast<long long>(rows), static_cast<long long>(lost));
  out += line;
  for (const auto& [gpu, row] : latest) {
    out += "GPU " + std::to_string(gpu) + "\n";
    for (std::size_t i = 0; i < names.size() && i < row.values.size(); ++i) {
      std::string v = format_sample_value(row.values[i]);
      std::snprintf(line, sizeof line, "  %-28s %14s\n", names[i].c_str(), v.empty() ? "-" : v.c_str());
      out += line;
    }
  }
  return out;
}

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
  auto metrics = list_chip_metrics(chip);  // validates the chip
  std::string out;
  const auto& entries = preset_entries(preset);
  if (!preset_chip_for(chip).empty() && !entries.empty()) {
    out += "# preset '" + preset + "' on " + chip + ": column, raw metric, meaning\n";
    for (const auto& e : entries) {
      std::string raw = preset_raw_name(e, chip);
      out += e.column + "\t" + (raw.empty() ? "(not exposed by this chip)" : raw) + "\t" + e.description + "\n";
    }
  } else {
    out += "# no '" + preset + "' preset for " + chip + " (presets: GH100, GB100, GB202); use --metrics\n";
  }
  out += "# " + std::to_string(metrics.size()) + " base metrics on " + chip +
         ": name, type, unit, description. Sample a counter with a rollup such as .sum, .sum.per_second "
         "or .avg.pct_of_peak_sustained_elapsed; some names need their listed prefix "
         "(e.g. TPC.TriageCompute.)\n";
  for (const auto& m : metrics) out += m.name + "\t" + m.type + "\t" + m.unit + "\t" + m.description + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

int run_sample(int argc, char** argv) {
  // Everything after "--" is the command to run; CLI11 sees only what comes before.
  std::vector<std::string> command;
  int own_argc = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) {
      own_argc = i;
      for (int j = i + 1; j < argc; ++j) command.emplace_back(argv[j]);
      break;
    }
  }
  CLI::App app{
      "Samples the hardware counters of one or all GPUs (device-wide: every process's kernels) and "
      "streams one line per sample.\n"
      "  cuprobe sample [OPTIONS] [--duration 30s | -- CMD ARGS...]\n"
      "Without --duration or a command it runs until SIGINT/SIGTERM.",
      "cuprobe sample"};
  std::string gpu_text = "all", interval_text = "100ms", duration_text, preset = "triage", metrics_text;
  std::string chip, format_text = "csv", output_path, summary_json, source_text;
  bool list = false, live = false, quiet = false;
  app.add_option("--gpu", gpu_text, "GPUs to sample: all, or indices like 0,1 (CUDA ordinals)")->capture_default_str();
  app.add_option("--interval", interval_text, "sample interval, 1ms to 10s")->capture_default_str();
  app.add_option("--duration", duration_text, "stop after this long (e.g. 30s, 2m)");
  app.add_option("--preset", preset,
                 "metric preset: triage (device-level, cheap) or pipes (adds tensor pipe per kind and FMA; costs "
                 "16-39% of a core per GPU)")
      ->check(CLI::IsMember(preset_names()))
      ->capture_default_str();
  app.add_option("--metrics", metrics_text, "raw CUPTI metric names a,b,c; replace the preset");
  app.add_flag("--list-metrics", list, "print the preset columns and the metrics a chip offers, then exit");
  app.add_option("--chip", chip, "chip for --list-metrics (GH100, GB100, GB202, ...); default: GPU 0's");
  add_counter_source_option(app, source_text);
  app.add_option("--format", format_text, "line format: csv or jsonl")->capture_default_str();
  app.add_option("-o,--output", output_path, "write lines to FILE (written to a temporary file, renamed at the end)");
  app.add_option("--summary-json", summary_json, "also write the end summary as JSON to FILE");
  app.add_flag("--live", live, "redraw a compact per-GPU view when stdout is a terminal (lines go to -o only)");
  app.add_flag("-q,--quiet", quiet, "no summary table on stderr");
  if (auto code = parse_args(app, own_argc, argv)) return *code;

  if (list) return list_metrics(chip, preset);
  if (!chip.empty()) throw Error("--chip only goes with --list-metrics", kExitUsage);

  SamplerConfig config = sampler_config_from_flags(gpu_text, interval_text, preset);
  if (!metrics_text.empty()) config.metrics = parse_metric_list(metrics_text);
  SampleFormat format = parse_sample_format(format_text);
  std::optional<std::chrono::nanoseconds> duration;
  if (!duration_text.empty()) {
    duration = parse_duration(duration_text);
    if (duration->count() <= 0) throw Error("--duration must be positive", kExitUsage);
    if (!command.empty()) throw Error("give either --duration or a command after --, not both", kExitUsage);
  }
  if (!command.empty() && command[0].empty()) throw Error("empty command after --", kExitUsage);
  bool live_view_on = live && isatty(STDOUT_FILENO);
  if (live && !live_view_on) std::fprintf(stderr, "cuprobe sample: --live ignored: stdout is not a terminal\n");
  if (live_view_on && output_path.empty()) {
    std::fprintf(stderr, "cuprobe sample: --live without -o: sample lines are not kept\n");
  }

  auto sampler = open_counter_sampler(config, parse_counter_source(source_text), true);
  const auto& names = sampler->metric_names();
  SampleLineWriter writer(format, names);
  std::optional<Output> out;
  if (!live_view_on || !output_path.empty()) out.emplace(output_path);
  CounterSummarizer summarizer(names);
  std::map<int, CounterRow> latest;
  std::int64_t rows_written = 0;

  {
    std::string gpus, chips;
    for (int g : sampler->gpus()) gpus += (gpus.empty() ? "" : ",") + std::to_string(g);
    for (const auto& c : sampler->chips()) chips += (chips.empty() ? "" : ",") + c;
    if (!quiet) {
      std::fprintf(stderr, "cuprobe sample: GPU %s (%s), %zu metrics, every %s\n", gpus.c_str(), chips.c_str(),
                   names.size(), interval_text.c_str());
    }
    std::string skipped;
    for (const auto& m : sampler->skipped_metrics()) skipped += (skipped.empty() ? "" : ", ") + m;
    if (!skipped.empty()) {
      std::fprintf(stderr, "cuprobe sample: left out (not exposed by this GPU): %s\n", skipped.c_str());
    }
  }
  if (out && !out->write(writer.header())) throw Error("cannot write output");

  StopFlag stop;
  signal(SIGPIPE, SIG_IGN);
  sampler->start();
  pid_t child = -1;
  int child_status = 0;
  bool child_done = false;
  std::string ended_by;
  try {
    if (!command.empty()) child = start_command(command);
  } catch (...) {
    sampler->stop();
    throw;
  }
  auto began = std::chrono::steady_clock::now();
  auto tick = std::min<std::chrono::nanoseconds>(
      std::chrono::milliseconds(100),
      std::max<std::chrono::nanoseconds>(config.interval, std::chrono::milliseconds(20)));
  bool output_closed = false;
  auto emit = [&](std::vector<CounterRow>&& batch) {
    if (batch.empty()) return;
    summarizer.add(batch);
    std::string text;
    for (const auto& r : batch) {
      text += writer.line(r);
      latest[r.gpu] = r;
    }
    rows_written += static_cast<std::int64_t>(batch.size());
    if (out && !output_closed && !(out->write(text) && out->flush())) output_closed = true;
    if (live_view_on) {
      std::string view = live_view(names, latest, rows_written, sampler->lost_samples());
      std::fwrite(view.data(), 1, view.size(), stdout);
      std::fflush(stdout);
    }
  };

  std::string stop_error;
  for (;;) {
    timespec ts{static_cast<time_t>(tick.count() / 1000000000), static_cast<long>(tick.count() % 1000000000)};
    nanosleep(&ts, nullptr);
    try {
      emit(sampler->drain());
    } catch (const Error& e) {
      stop_error = e.what();
      ended_by = "sampling error";
      break;
    }
    if (output_closed) {
      ended_by = "output closed";
      break;
    }
    if (child > 0) {
      pid_t r = waitpid(child, &child_status, WNOHANG);
      if (r == child) {
        child_done = true;
        ended_by = "command exited";
        break;
      }
    }
    if (stop.signal()) {
      ended_by = stop.signal() == SIGINT ? "SIGINT" : "SIGTERM";
      break;
    }
    if (duration && std::chrono::steady_clock::now() - began >= *duration) {
      ended_by = "duration";
      break;
    }
  }
  if (child > 0 && !child_done) {
    if (!stop_error.empty()) {
      // Sampling broke: say so now, but let the command finish its work.
      std::fprintf(stderr, "cuprobe sample: sampling stopped (%s); waiting for the command to end\n",
                   stop_error.c_str());
    } else {
      // Signalled, or the output closed, while the command runs: pass the signal on.
      kill(child, stop.signal() ? stop.signal() : SIGTERM);
    }
    while (waitpid(child, &child_status, 0) < 0 && errno == EINTR) {
    }
    child_done = true;
  }
  sampler->stop();
  try {
    emit(sampler->drain());
  } catch (const Error& e) {
    if (stop_error.empty()) stop_error = e.what();
  }
  std::int64_t lost = sampler->lost_samples();
  if (out) out->close();

  CounterSummary summary = summarizer.summary(lost);
  if (!quiet) {
    std::string table = format_counter_summary(summary);
    std::fprintf(stderr, "cuprobe sample: ended by %s\n%s", ended_by.c_str(), table.c_str());
  }
  if (lost > 0 || sampler->restarts() > 0) {
    std::fprintf(stderr,
                 "cuprobe sample: warning: %lld samples lost (hardware buffer overflow or a stalled stream); "
                 "sampling restarted %d times\n",
                 static_cast<long long>(lost), sampler->restarts());
  }
  if (!summary_json.empty()) {
    nlohmann::json j = counter_summary_json(summary);
    j["schema"] = "cuprobe.sample/1";
    j["interval_ns"] = config.interval.count();
    j["raw_metrics"] = sampler->raw_metric_names();
    j["chips"] = sampler->chips();
    j["skipped_metrics"] = sampler->skipped_metrics();
    j["ended_by"] = ended_by;
    j["restarts"] = sampler->restarts();
    if (child_done) {
      j["command_exit_code"] = WIFEXITED(child_status) ? WEXITSTATUS(child_status) : 128 + WTERMSIG(child_status);
    }
    write_file_atomically(summary_json, j.dump(2) + "\n");
  }
  if (!stop_error.empty()) throw Error(stop_error);
  if (output_closed) throw Error("output closed after " + std::to_string(rows_written) + " samples");
  if (rows_written == 0) std::fprintf(stderr, "cuprobe sample: warning: no samples were decoded\n");
  if (child_done) return WIFEXITED(child_status) ? WEXITSTATUS(child_status) : 128 + WTERMSIG(child_status);
  return kExitOk;
}

const VerbRegistration kRegistration{"sample", "stream a GPU's hardware counters (device-wide, any process)",
                                     &run_sample};

}  // namespace
}  // namespace cuprobe
