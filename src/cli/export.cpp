// cuprobe export --chrome INPUT... -o trace.json: a run file, a torch/Kineto trace
// (or anything load_profile reads) as a Chrome/Perfetto trace. It goes through
// the model, so the output is trimmed to what cuprobe keeps: GPU activities,
// CPU ranges and counter samples. Several inputs (or a directory) are the ranks
// of one job, loaded as `analyze` loads them and merged into one file, a process
// per rank (report/chrome_export.h says how the clocks line up).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "analysis/clock_alignment.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/say.h"
#include "import/load_profiles.h"
#include "report/chrome_export.h"

namespace cuprobe {
namespace {

int run_export(int argc, char** argv) {
  CLI::App app(
      "Convert a cuprobe run file or a torch/Kineto trace to a trimmed Chrome/Perfetto trace; several inputs\n"
      "(the ranks of one job, or a directory of them) become one file with a process per rank.\n"
      "Usage: cuprobe export --chrome INPUT... -o trace.json",
      argv[0]);
  std::vector<std::string> inputs;
  std::string output;
  bool chrome = false;
  app.add_flag("--chrome", chrome, "write a Chrome trace-event JSON (chrome://tracing, ui.perfetto.dev)")->required();
  app.add_option("inputs", inputs,
                 "run file (cuprobe record) or trace (.json, .json.gz, .json.xz); several, or a directory: one rank "
                 "each, merged")
      ->required();
  app.add_option("-o,--output", output, "output file ('-' for stdout)")->required();
  if (auto code = parse_args(app, argc, argv)) return *code;
  std::error_code ec;
  bool merged = inputs.size() > 1 || std::filesystem::is_directory(inputs.front(), ec);
  std::vector<Profile> ranks;
  if (merged)
    ranks = load_profiles(inputs);
  else
    ranks.push_back(load_profile(inputs.front()));
  ClockAlignment clocks;
  if (merged) {
    clocks = align_profile_clocks(ranks);
    if (clocks.matched_calls == 0) {
      say("export", "clocks not aligned: no collective call on every rank; each rank keeps its own timestamps");
    } else {
      auto [lo, hi] = std::minmax_element(clocks.offset_ns.begin(), clocks.offset_ns.end());
      say("export", "clocks aligned on %zu collective calls: offsets %+.3f to %+.3f ms (otherData.ranks lists each)",
          clocks.matched_calls, static_cast<double>(*lo) / 1e6, static_cast<double>(*hi) / 1e6);
    }
  }
  auto write = [&](std::ostream& out) {
    if (merged)
      write_merged_chrome_trace(ranks, out, clocks.offset_ns);
    else
      write_chrome_trace(ranks.front(), out);
  };
  if (output == "-") {
    write(std::cout);
    std::cout.flush();
    if (!std::cout) throw Error("writing to stdout failed");
  } else {
    std::vector<std::string> read = profile_files(ranks);
    read.insert(read.end(), inputs.begin(), inputs.end());  // an output over any file read is refused
    AtomicFile file(output, read);
    write(file.stream());
    file.commit();
  }
  std::size_t gpu = 0, cpu = 0, counters = 0;
  bool complete = true;
  for (const Profile& p : ranks) {
    gpu += p.gpu.size();
    cpu += p.cpu.size();
    counters += p.counters.size();
    complete = complete && p.complete;
  }
  std::string what = merged ? std::to_string(ranks.size()) + " ranks, " : std::string();
  say("export", "%s%zu GPU activities, %zu ranges, %zu counter samples%s", what.c_str(), gpu, cpu, counters,
      complete ? "" : " (a recording is incomplete: see 'cuprobe analyze' warnings)");
  return 0;
}

const VerbRegistration kRegistration{"export", "convert a run file or traces (one per rank) to a Chrome/Perfetto trace",
                                     &run_export};

}  // namespace
}  // namespace cuprobe
