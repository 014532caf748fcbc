// cuprobe analyze TRACE...: where each step's GPU time goes, with findings.
#include "analysis/analyze.h"

#include <cstdio>
#include <filesystem>

#include "cli/parse_args.h"
#include "cli/peak_flag.h"
#include "cli/verb.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "import/load_profiles.h"
#include "report/analyze_csv.h"
#include "report/analyze_json.h"
#include "report/analyze_text.h"

namespace cuprobe {
namespace {

void write_csv_tables(const AnalyzeReport& report, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("--csv: cannot create directory " + dir + ": " + ec.message());
  std::string written;
  for (const auto& [name, text] : analyze_csv(report)) {
    AtomicFile file((std::filesystem::path(dir) / name).string());
    file.stream() << text;
    file.commit();
    written += (written.empty() ? "" : ", ") + name;
  }
  std::fprintf(stderr, "cuprobe analyze: wrote %s in %s\n", written.c_str(), dir.c_str());
}

int run_analyze(int argc, char** argv) {
  CLI::App app{
      "Kernel-level breakdown per step of torch profiler (Kineto) traces, cuprobe runs and Nsight Systems exports,\n"
      "with findings. Give one file per rank (.json, .json.gz, .json.xz, .cuprobe, nsys .sqlite or .nsys-rep) or a\n"
      "directory of them; ranks come from distributedInfo, the processes and GPUs of an nsys export, or the name.",
      argv[0]};
  std::vector<std::string> files;
  AnalyzeOptions options;
  bool as_json = false;
  bool strict = false;
  std::string csv_dir;
  std::size_t top = 15;
  app.add_option("files", files, "trace files (one per rank) or directories of them")->required();
  app.add_option("--step-marker", options.step_marker,
                 "annotation name (prefix) that marks one step; default: detect ProfilerStep#, SGLang, vLLM markers");
  app.add_flag("--json", as_json, "print the cuprobe.analyze/1 JSON report");
  std::string peak;
  add_peak_flag(app, peak);
  app.add_option("--top", top, "kernels to list per rank (default 15)");
  app.add_flag("--strict", strict,
               "fail (exit 1) when the import counted any problem (a data_loss or error import stat; see warnings)");
  app.add_option(
      "--csv", csv_dir,
      "also write categories.csv, kernels.csv, steps.csv, findings.csv and the tables idle.csv, launches.csv,\n"
      "annotations.csv, api.csv, copies.csv, queues.csv into DIR (created if missing)");
  if (auto rc = parse_args(app, argc, argv)) return *rc;
  apply_peak_flag(peak, options);

  std::vector<Profile> profiles = load_profiles(files);
  AnalyzeReport report = analyze_profiles(profiles, options);
  if (strict) {
    for (const auto& p : profiles) {
      if (p.stats.problems() == 0) continue;
      for (const auto& line : p.stats.counted()) {
        if (line.info->severity != StatSeverity::kInfo) throw InputError(p.file, "--strict: " + line.text());
      }
    }
  }
  if (!csv_dir.empty()) write_csv_tables(report, csv_dir);
  std::string out = as_json
                        ? analyze_json(report, as_json ? SIZE_MAX : top).dump(1, ' ', false, kReplaceInvalidUtf8) + "\n"
                        : analyze_text(report, top);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

const VerbRegistration kRegistration{"analyze", "where each step's GPU time goes (torch/Kineto traces, cuprobe runs)",
                                     &run_analyze};

}  // namespace
}  // namespace cuprobe
