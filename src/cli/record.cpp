// cuprobe record [OPTIONS] -- CMD ARGS...: the kernel timeline and GPU
// counters of an unmodified CUDA program, in one run file (docs/record.md).
#include <CLI/CLI.hpp>
#include <ctime>
#include <string>
#include <vector>

#include "cli/counter_flags.h"
#include "cli/deprecated_option.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "collect/record/inject_library.h"
#include "collect/record/record_session.h"
#include "common/atomic_file.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/say.h"
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
  return clock_text(std::time(nullptr), "cuprobe-%Y%m%d-%H%M%S.cuprobe", TimeZone::kLocal);
}

// A usage error when a --kinds item is not an activity kind.
std::string check_kinds(const std::string& v) {
  std::size_t pos = 0;
  while (pos <= v.size()) {
    std::size_t comma = v.find(',', pos);
    std::string item = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (!from_name<ActivityKind>(item)) return "unknown kind '" + item + "' (" + activity_kind_list(", ") + ")";
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return {};
}

struct RecordFlags {
  std::string output, delay, duration, capture = "all", max_size, graphs = "node", hw_trace = "auto", kinds;
  std::string inject_library;
  bool force = false, api_calls = false, keep_cupti = false, no_counters = false;
  CounterFlags counters{.interval = "10ms"};
};

void declare(CLI::App& app, RecordFlags& f) {
  app.add_option("-o,--output", f.output, "run file to write (default cuprobe-DATE-TIME.cuprobe)");
  app.add_flag("-f,--force", f.force, "replace the output file if it exists");
  app.add_option("--delay", f.delay, "start recording this long after the command starts (e.g. 60s)");
  app.add_option("--duration", f.duration, "record for this long, then close the run file (the command runs on)");
  app.add_option("--capture", f.capture,
                 "all | cuda-profiler (between cudaProfilerStart/Stop) | signal (SIGUSR1 toggles)")
      ->check(CLI::IsMember({"all", "cuda-profiler", "signal"}));
  app.add_option("--max-size", f.max_size,
                 "stop recording when the run file reaches this size (e.g. 512MiB); the rest is counted as lost");
  app.add_flag("--api", f.api_calls, "also record CUDA runtime API calls (launch correlation; costs more)");
  app.add_flag("--keep-cupti", f.keep_cupti,
               "when a profiler started inside the command (torch.profiler) asks for CUPTI, keep recording and "
               "leave it without GPU events (default: hand CUPTI over and stop recording kernels in that process)");
  app.add_option("--graphs", f.graphs,
                 "node: every kernel inside CUDA graphs (default); whole: one record per graph launch, timed by "
                 "CUPTI (lower overhead); events: as whole, each launch timed by CUDA events on the launching "
                 "stream (as the stream sees it)")
      ->check(CLI::IsMember({"node", "whole", "events"}));
  app.add_option("--hw-trace", f.hw_trace,
                 "auto: time kernels with the GPU's hardware event system where it has one (Blackwell), "
                 "else by software instrumentation; off: always software")
      ->check(CLI::IsMember({"auto", "off"}));
  app.add_flag("--no-counters", f.no_counters, "do not sample GPU counters");
  app.add_option("--kinds", f.kinds, "what to trace, a subset of " + activity_kind_list(",") + " (default all)")
      ->check(check_kinds);
  add_deprecated_alias(app, add_interval_flag(app, f.counters, "counter sample interval")->capture_default_str(),
                       "--sample-interval");
  add_deprecated_alias(app,
                       add_gpu_flag(app, f.counters,
                                    "GPUs whose counters to sample, as cuprobe numbers them: all, or indices like 0,1 "
                                    "(each costs a little CPU; kernels are traced on every GPU)")
                           ->capture_default_str(),
                       "--counter-gpus");
  add_preset_flag(app, f.counters, "counter preset: triage (default) or pipes (see cuprobe sample --help)");
  app.add_option("--inject-library", f.inject_library,
                 "injection library (default: libcuprobe_inject.so beside cuprobe, else in ../lib/cuprobe)");
  app.allow_extras(false);
}

RecordOptions plan(const RecordFlags& f, std::vector<std::string> command) {
  if (command.empty()) throw Error("no command: cuprobe record [OPTIONS] -- CMD ARGS...", kExitUsage);
  RecordOptions o;
  o.command = std::move(command);
  o.inject_library = f.inject_library;
  if (!o.inject_library.empty()) {
    if (std::string why = inject_library_problem(o.inject_library); !why.empty()) {
      throw Error("--inject-library " + o.inject_library + ": " + why, kExitUsage);
    }
  }
  o.output = f.output.empty() ? default_output() : f.output;
  refuse_output_over_inputs(o.output, {o.inject_library});  // --force never replaces what it reads
  o.force = f.force;
  o.api_calls = f.api_calls;
  o.keep_cupti = f.keep_cupti;
  o.kinds = f.kinds;
  if (!f.delay.empty()) o.delay = parse_duration(f.delay);
  if (!f.duration.empty()) {
    o.duration = parse_duration(f.duration);
    if (o.duration->count() <= 0) throw Error("--duration must be positive", kExitUsage);
  }
  if (!f.max_size.empty()) o.max_size = parse_size(f.max_size);
  CounterPlan counters = plan_counters(f.counters);
  o.sample_interval = counters.config.interval;
  o.preset = counters.config.preset;
  o.counter_gpus = counters.config.gpus;
  o.counters = !f.no_counters;
  o.graphs = f.graphs;
  o.hw_trace = f.hw_trace == "auto";
  o.capture = f.capture == "cuda-profiler" ? CaptureMode::kCudaProfiler
              : f.capture == "signal"      ? CaptureMode::kSignal
                                           : CaptureMode::kAll;
  if (o.capture != CaptureMode::kAll && (o.delay || o.duration)) {
    throw Error("--delay/--duration apply to --capture all only", kExitUsage);
  }
  return o;
}

int run(const RecordOptions& o) {
  RecordOutcome r = run_record(o);
  say("record",
      "wrote %s (%s): %lld kernels, %lld memcpy, %lld memset, %lld ranges, %lld graph launches, %lld counter "
      "samples, %lld processes; %lld records lost%s",
      o.output.c_str(), r.status.c_str(), static_cast<long long>(r.kernels), static_cast<long long>(r.memcpy),
      static_cast<long long>(r.memset), static_cast<long long>(r.ranges), static_cast<long long>(r.graph_launches),
      static_cast<long long>(r.samples), static_cast<long long>(r.processes), static_cast<long long>(r.losses),
      r.losses > 0 ? " (see the losses table)" : "");
  return r.exit_code;
}

int run_record_verb(int argc, char** argv) {
  CommandAfterDashes split = split_at_dashes(argc, argv);
  CLI::App app(
      "Run a command and record its CUDA kernels, copies, NVTX ranges and the GPU counters\n"
      "into one run file (SQLite). Usage: cuprobe record [OPTIONS] -- CMD ARGS...",
      argv[0]);
  RecordFlags flags;
  declare(app, flags);
  if (auto code = parse_args(app, split.own_argc, argv)) return *code;
  return run(plan(flags, std::move(split.command)));
}

const VerbRegistration kRegistration{"record", "record an unmodified CUDA program: kernels, copies, NVTX, counters",
                                     &run_record_verb};

}  // namespace
}  // namespace cuprobe
