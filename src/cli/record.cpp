// cuprobe record [OPTIONS] -- CMD ARGS...: the kernel timeline and GPU
// counters of an unmodified CUDA program, in one run file (docs/record.md).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "cli/deprecated_option.h"
#include "cli/gpu_list.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "collect/counters/metric_presets.h"
#include "collect/record/inject_library.h"
#include "collect/record/record_session.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/units.h"
#include "model/kinds.h"

namespace cuprobe {
namespace {

std::string activity_kind_list(std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < enum_count<ActivityKind>(); ++i) {
    out += (i ? std::string(separator) : "") + std::string(name_of(enum_at<ActivityKind>(i)));
  }
  return out;
}

std::string default_output() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "cuprobe-%Y%m%d-%H%M%S.cuprobe", &tm);
  return buf;
}

int run_record_verb(int argc, char** argv) {
  // Everything after "--" is the command, untouched by the option parser.
  std::vector<std::string> command;
  int own_argc = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--") {
      own_argc = i;
      for (int j = i + 1; j < argc; ++j) command.emplace_back(argv[j]);
      break;
    }
  }
  CLI::App app(
      "Run a command and record its CUDA kernels, copies, NVTX ranges and the GPU counters\n"
      "into one run file (SQLite). Usage: cuprobe record [OPTIONS] -- CMD ARGS...",
      argv[0]);
  RecordOptions o;
  std::string graphs = "node", hw_trace = "auto";
  std::string delay, duration, capture = "all", max_size, interval = "10ms", gpu_text = "all";
  bool no_counters = false;
  app.add_option("-o,--output", o.output, "run file to write (default cuprobe-DATE-TIME.cuprobe)");
  app.add_flag("-f,--force", o.force, "replace the output file if it exists");
  app.add_option("--delay", delay, "start recording this long after the command starts (e.g. 60s)");
  app.add_option("--duration", duration, "record for this long, then close the run file (the command runs on)");
  app.add_option("--capture", capture,
                 "all | cuda-profiler (between cudaProfilerStart/Stop) | signal (SIGUSR1 toggles)")
      ->check(CLI::IsMember({"all", "cuda-profiler", "signal"}));
  app.add_option("--max-size", max_size,
                 "stop recording when the run file reaches this size (e.g. 512MiB); the rest is counted as lost");
  app.add_flag("--api", o.api_calls, "also record CUDA runtime API calls (launch correlation; costs more)");
  app.add_flag("--keep-cupti", o.keep_cupti,
               "when a profiler started inside the command (torch.profiler) asks for CUPTI, keep recording and "
               "leave it without GPU events (default: hand CUPTI over and stop recording kernels in that process)");
  app.add_option("--graphs", graphs,
                 "node: every kernel inside CUDA graphs (default); whole: one record per graph launch, timed by "
                 "CUPTI (lower overhead); events: as whole, each launch timed by CUDA events on the launching "
                 "stream (as the stream sees it)")
      ->check(CLI::IsMember({"node", "whole", "events"}));
  app.add_option("--hw-trace", hw_trace,
                 "auto: time kernels with the GPU's hardware event system where it has one (Blackwell), "
                 "else by software instrumentation; off: always software")
      ->check(CLI::IsMember({"auto", "off"}));
  app.add_flag("--no-counters", no_counters, "do not sample GPU counters");
  app.add_option("--kinds", o.kinds, "what to trace, a subset of " + activity_kind_list(",") + " (default all)")
      ->check([](const std::string& v) -> std::string {
        std::size_t pos = 0;
        while (pos <= v.size()) {
          std::size_t comma = v.find(',', pos);
          std::string item = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
          if (!from_name<ActivityKind>(item)) return "unknown kind '" + item + "' (" + activity_kind_list(", ") + ")";
          if (comma == std::string::npos) break;
          pos = comma + 1;
        }
        return {};
      });
  auto* interval_opt = app.add_option("--interval", interval, "counter sample interval")->capture_default_str();
  add_deprecated_alias(app, interval_opt, "--sample-interval");
  auto* gpu_opt = app.add_option("--gpu", gpu_text,
                                 "GPUs whose counters to sample, as cuprobe numbers them: all, or indices like 0,1 "
                                 "(each costs a little CPU; kernels are traced on every GPU)")
                      ->capture_default_str();
  add_deprecated_alias(app, gpu_opt, "--counter-gpus");
  app.add_option("--preset", o.preset, "counter preset: triage (default) or pipes (see cuprobe sample --help)")
      ->check(CLI::IsMember(preset_names()));
  app.add_option("--inject-library", o.inject_library,
                 "injection library (default: libcuprobe_inject.so beside cuprobe, else in ../lib/cuprobe)");
  app.allow_extras(false);
  if (auto code = parse_args(app, own_argc, argv)) return *code;
  if (command.empty()) throw Error("no command: cuprobe record [OPTIONS] -- CMD ARGS...", kExitUsage);
  o.command = command;
  if (!o.inject_library.empty()) {
    if (std::string why = inject_library_problem(o.inject_library); !why.empty()) {
      throw Error("--inject-library " + o.inject_library + ": " + why, kExitUsage);
    }
  }
  if (o.output.empty()) o.output = default_output();
  refuse_output_over_inputs(o.output, {o.inject_library});  // --force never replaces what it reads
  if (!delay.empty()) o.delay = parse_duration(delay);
  if (!duration.empty()) {
    o.duration = parse_duration(duration);
    if (o.duration->count() <= 0) throw Error("--duration must be positive", kExitUsage);
  }
  if (!max_size.empty()) o.max_size = parse_size(max_size);
  o.sample_interval = parse_duration(interval);
  if (o.sample_interval.count() <= 0) throw Error("--interval must be positive", kExitUsage);
  o.counters = !no_counters;
  o.counter_gpus = parse_gpu_list(gpu_text);
  o.graphs = graphs;
  o.hw_trace = hw_trace == "auto";
  o.capture = capture == "cuda-profiler" ? CaptureMode::kCudaProfiler
              : capture == "signal"      ? CaptureMode::kSignal
                                         : CaptureMode::kAll;
  if (o.capture != CaptureMode::kAll && (o.delay || o.duration)) {
    throw Error("--delay/--duration apply to --capture all only", kExitUsage);
  }

  RecordOutcome r = run_record(o);
  std::fprintf(stderr,
               "cuprobe record: wrote %s (%s): %lld kernels, %lld memcpy, %lld memset, %lld ranges, "
               "%lld graph launches, %lld counter samples, %lld processes; %lld records lost%s\n",
               o.output.c_str(), r.status.c_str(), static_cast<long long>(r.kernels), static_cast<long long>(r.memcpy),
               static_cast<long long>(r.memset), static_cast<long long>(r.ranges),
               static_cast<long long>(r.graph_launches), static_cast<long long>(r.samples),
               static_cast<long long>(r.processes), static_cast<long long>(r.losses),
               r.losses > 0 ? " (see the losses table)" : "");
  return r.exit_code;
}

const VerbRegistration kRegistration{"record", "record an unmodified CUDA program: kernels, copies, NVTX, counters",
                                     &run_record_verb};

}  // namespace
}  // namespace cuprobe
