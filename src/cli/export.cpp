// cuprobe export --chrome RUN.cuprobe -o trace.json: a run file as a
// Chrome/Perfetto trace.
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
#include "import/run_file/run_file_importer.h"
#include "report/chrome_export.h"

namespace cuprobe {
namespace {

int run_export(int argc, char** argv) {
  CLI::App app(
      "Convert a cuprobe run file to another format.\n"
      "Usage: cuprobe export --chrome RUN.cuprobe -o trace.json",
      argv[0]);
  std::string input, output;
  bool chrome = false;
  app.add_flag("--chrome", chrome, "write a Chrome trace-event JSON (chrome://tracing, ui.perfetto.dev)")->required();
  app.add_option("run", input, "run file written by cuprobe record")->required();
  app.add_option("-o,--output", output, "output file ('-' for stdout)")->required();
  if (auto code = parse_args(app, argc, argv)) return *code;
  Profile profile = import_run_file(input);
  if (output == "-") {
    write_chrome_trace(profile, std::cout);
    std::cout.flush();
    if (!std::cout) throw Error("writing to stdout failed");
  } else {
    AtomicFile file(output);
    write_chrome_trace(profile, file.stream());
    file.commit();
  }
  std::fprintf(stderr, "cuprobe export: %zu GPU activities, %zu ranges, %zu counter samples%s\n", profile.gpu.size(),
               profile.cpu.size(), profile.counters.size(),
               profile.complete ? "" : " (the recording is incomplete: see 'cuprobe analyze' warnings)");
  return 0;
}

const VerbRegistration kRegistration{"export", "convert a run file to a Chrome/Perfetto trace", &run_export};

}  // namespace
}  // namespace cuprobe
