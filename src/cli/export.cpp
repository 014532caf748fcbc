// cuprobe export --chrome INPUT -o trace.json: a run file, a torch/Kineto trace
// (or anything load_profile reads) as a Chrome/Perfetto trace. It goes through
// the model, so the output is trimmed to what cuprobe keeps: GPU activities,
// CPU ranges and counter samples.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

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
      "Convert a cuprobe run file or a torch/Kineto trace to a trimmed Chrome/Perfetto trace.\n"
      "Usage: cuprobe export --chrome INPUT -o trace.json",
      argv[0]);
  std::string input, output;
  bool chrome = false;
  app.add_flag("--chrome", chrome, "write a Chrome trace-event JSON (chrome://tracing, ui.perfetto.dev)")->required();
  app.add_option("input", input, "run file (cuprobe record) or trace (.json, .json.gz, .json.xz)")->required();
  app.add_option("-o,--output", output, "output file ('-' for stdout)")->required();
  if (auto code = parse_args(app, argc, argv)) return *code;
  Profile profile = load_profile(input);
  if (output == "-") {
    write_chrome_trace(profile, std::cout);
    std::cout.flush();
    if (!std::cout) throw Error("writing to stdout failed");
  } else {
    AtomicFile file(output, {input});
    write_chrome_trace(profile, file.stream());
    file.commit();
  }
  say("export", "%zu GPU activities, %zu ranges, %zu counter samples%s", profile.gpu.size(), profile.cpu.size(),
      profile.counters.size(),
      profile.complete ? "" : " (the recording is incomplete: see 'cuprobe analyze' warnings)");
  return 0;
}

const VerbRegistration kRegistration{"export", "convert a run file or trace to a trimmed Chrome/Perfetto trace",
                                     &run_export};

}  // namespace
}  // namespace cuprobe
