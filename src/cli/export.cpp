// cuprobe export --chrome INPUT... -o trace.json: a run file, a torch/Kineto trace
// (or anything load_profile reads) as a Chrome/Perfetto trace. It goes through
// the model, so the output is trimmed to what cuprobe keeps: GPU activities,
// CPU ranges and counter samples. Several inputs (or a directory) are the ranks
// of one job, loaded as `analyze` loads them and merged into one file, a process
// per rank (report/chrome_export.h says how the clocks line up).
// Declare → plan → run (cli/parse_args.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/clock_alignment.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/say.h"
#include "import/load_profiles.h"
#include "report/chrome_export.h"

namespace cuprobe {
namespace {

struct ExportFlags {
  std::vector<std::string> inputs;
  std::string output;
  bool chrome = false;
};

void declare(CLI::App& app, ExportFlags& f) {
  app.add_flag("--chrome", f.chrome, "write a Chrome trace-event JSON (chrome://tracing, ui.perfetto.dev)")->required();
  app.add_option("inputs", f.inputs,
                 "run file (cuprobe record) or trace (.json, .json.gz, .json.xz); several, or a directory: one rank "
                 "each, merged")
      ->required();
  app.add_option("-o,--output", f.output, "output file ('-' for stdout)")->required();
}

struct ExportPlan {
  std::vector<std::string> inputs;
  std::string output;   // "-": stdout
  bool merged = false;  // several inputs or a directory: one process per rank (load_profiles); else one file whole
};

ExportPlan plan(const ExportFlags& f) {
  ExportPlan p;
  p.inputs = f.inputs;
  p.output = f.output;
  std::error_code ec;
  p.merged = f.inputs.size() > 1 || std::filesystem::is_directory(f.inputs.front(), ec);
  return p;
}

std::vector<Profile> load(const ExportPlan& p) {
  if (p.merged) return load_profiles(p.inputs);
  std::vector<Profile> one;
  one.push_back(load_profile(p.inputs.front()));
  return one;
}

// Several ranks: their clocks aligned on matched collective calls (analysis/clock_alignment), said on stderr.
ClockAlignment align_ranks(const std::vector<Profile>& ranks) {
  ClockAlignment clocks = align_profile_clocks(ranks);
  std::string how(collective_matching_name(clocks.matching));
  if (clocks.matched_calls == 0) {
    say("export",
        "clocks not aligned: no collective call matched across ranks (by %s); each rank keeps its own "
        "timestamps",
        how.c_str());
  } else {
    auto [lo, hi] = std::minmax_element(clocks.offset_ns.begin(), clocks.offset_ns.end());
    std::size_t unaligned = static_cast<std::size_t>(std::count(clocks.aligned.begin(), clocks.aligned.end(), false));
    say("export",
        "clocks aligned on %zu collective calls matched by %s: offsets %+.3f to %+.3f ms (otherData.ranks lists "
        "each)%s",
        clocks.matched_calls, how.c_str(), static_cast<double>(*lo) / 1e6, static_cast<double>(*hi) / 1e6,
        unaligned ? "; ranks no matched call reaches keep their own timestamps" : "");
  }
  return clocks;
}

void write_trace(const ExportPlan& p, const std::vector<Profile>& ranks) {
  ClockAlignment clocks;
  if (p.merged) clocks = align_ranks(ranks);
  auto write = [&](std::ostream& out) {
    if (p.merged)
      write_merged_chrome_trace(ranks, out, clocks.offset_ns);
    else
      write_chrome_trace(ranks.front(), out);
  };
  // '-', /dev/stdout, a FIFO or a device are streamed into; a file is replaced whole (AtomicFile).
  std::vector<std::string> read = profile_files(ranks);
  read.insert(read.end(), p.inputs.begin(), p.inputs.end());  // an output over any file read is refused
  AtomicFile file(p.output, read);
  write(file.stream());
  file.commit();
}

// One line on stderr: what the trace holds.
void say_what_was_written(const ExportPlan& p, const std::vector<Profile>& ranks) {
  std::size_t gpu = 0, cpu = 0, counters = 0;
  bool complete = true;
  for (const Profile& r : ranks) {
    gpu += r.gpu.size();
    cpu += r.cpu.size();
    counters += r.counters.size();
    complete = complete && r.complete;
  }
  std::string what = p.merged ? std::to_string(ranks.size()) + " ranks, " : std::string();
  say("export", "%s%zu GPU activities, %zu ranges, %zu counter samples%s", what.c_str(), gpu, cpu, counters,
      complete ? "" : " (a recording is incomplete: see 'cuprobe analyze' warnings)");
}

int run(const ExportPlan& p) {
  std::vector<Profile> ranks = load(p);
  write_trace(p, ranks);
  say_what_was_written(p, ranks);
  return kExitOk;
}

int run_export(int argc, char** argv) {
  CLI::App app(
      "Convert a cuprobe run file or a torch/Kineto trace to a trimmed Chrome/Perfetto trace; several inputs\n"
      "(the ranks of one job, or a directory of them) become one file with a process per rank.\n"
      "Usage: cuprobe export --chrome INPUT... -o trace.json",
      argv[0]);
  return declare_plan_run<ExportFlags>(app, argc, argv, declare, plan, run);
}

const VerbRegistration kRegistration{"export", "convert a run file or traces (one per rank) to a Chrome/Perfetto trace",
                                     &run_export};

}  // namespace
}  // namespace cuprobe
