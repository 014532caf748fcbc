// cuprobe report -o report.html INPUT...: the investigation as one self-contained
// HTML page (traces, run files, directories of them; a baseline, bench results
// and counter samples as extra views). `--bench R.json` without INPUT makes a
// bench page alone.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <optional>

#include "analysis/analyze.h"
#include "analysis/diff.h"
#include "cli/parse_args.h"
#include "cli/verb.h"
#include "common/atomic_file.h"
#include "common/bounded_read.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/say.h"
#include "common/version.h"
#include "import/load_profiles.h"
#include "report/html/bench_view.h"
#include "report/html/report_data.h"
#include "report/html/report_html.h"
#include "report/html/samples_view.h"

namespace cuprobe {
namespace {

// A bench result, its request lines or samples: bounded, a device refused (common/bounded_read).
std::string read_text(const std::string& path) { return read_bounded_file(path, std::uint64_t{4} << 30); }

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

int run_report(int argc, char** argv) {
  CLI::App app{
      "The investigation as one self-contained HTML page: findings, per-step bars, tables, step timelines,\n"
      "ranks side by side, counters; with --baseline what moved, with --bench latency and throughput\n"
      "(--bench without traces: a page of the bench run alone).\n"
      "The page makes no network request: it opens on an air-gapped host.",
      argv[0]};
  std::vector<std::string> inputs;
  std::string baseline_arg;
  std::string output, bench, requests, samples, title = "cuprobe report";
  AnalyzeOptions options;
  app.add_option("inputs", inputs,
                 "traces, run files, or directories of them (one file per rank); none for a bench page");
  app.add_option("-o,--output", output, "the HTML file to write ('-' for stdout)")->required();
  app.add_option("--baseline", baseline_arg, "the run to compare against (files, comma-separated for ranks)");
  app.add_option("--bench", bench, "a `cuprobe bench --json` result: latency and throughput views");
  app.add_option("--requests", requests, "the bench's per-request lines (--save-requests): distributions over time")
      ->needs(app.get_option("--bench"));
  app.add_option("--samples", samples, "`cuprobe sample` output (CSV or JSONL): counters over time");
  app.add_option("--step-marker", options.step_marker, "annotation name (prefix) that marks one step");
  app.add_option("--title", title, "the page's title");
  if (auto rc = parse_args(app, argc, argv)) return *rc;
  if (inputs.empty() && bench.empty())
    throw Error("give the traces (INPUT...), a bench result (--bench), or both", kExitUsage);
  if (inputs.empty() && !baseline_arg.empty())
    throw Error("--baseline compares traces: give the traces too", kExitUsage);

  std::vector<Profile> profiles = inputs.empty() ? std::vector<Profile>{} : load_profiles(inputs);
  std::vector<std::string> files = profile_files(profiles);
  AnalyzeReport report = analyze_profiles(profiles, options);

  ReportInputs in;
  in.inputs = files;
  in.profiles = &profiles;
  in.report = inputs.empty() ? nullptr : &report;
  in.version = kVersion;
  in.generated_utc = utc_now();
  std::vector<std::string> baseline;
  for (std::size_t start = 0, comma; start < baseline_arg.size(); start = comma + 1) {
    comma = baseline_arg.find(',', start);
    if (comma == std::string::npos) comma = baseline_arg.size();
    if (comma > start) baseline.push_back(baseline_arg.substr(start, comma - start));
  }
  if (!baseline.empty()) {
    std::vector<Profile> base_profiles = load_profiles(baseline);
    std::vector<std::string> base_files = profile_files(base_profiles);
    AnalyzeReport base = analyze_profiles(base_profiles, options);
    ReportBaseline b{diff_reports(base, report), base_files, files, ""};
    if (base_profiles.size() != profiles.size()) {
      b.rank_note = "The baseline has " + std::to_string(base_profiles.size()) + " rank(s), this run " +
                    std::to_string(profiles.size()) + ": per-step figures compare different setups.";
      say("report", "warning: %s", b.rank_note.c_str());
    }
    in.baseline = std::move(b);
  }
  if (!bench.empty()) {
    std::optional<std::string> request_lines;
    if (!requests.empty()) request_lines = read_text(requests);
    in.bench = bench_view(bench, read_text(bench), requests, request_lines);
    if (inputs.empty())
      in.inputs = requests.empty() ? std::vector<std::string>{bench} : std::vector<std::string>{bench, requests};
  }
  if (!samples.empty()) in.samples = samples_view(samples, read_text(samples));

  std::string page = render_report_html(report_data(in), title);
  std::vector<std::string> read = in.baseline ? in.baseline->a_files : std::vector<std::string>{};
  read.insert(read.end(), {bench, requests, samples});
  read.insert(read.end(), files.begin(), files.end());  // an output over any file read is refused
  AtomicFile file(output, read);
  file.stream() << page;
  file.commit();
  say("report", "wrote %s (%.2f MB)", output.c_str(), static_cast<double>(page.size()) / 1e6);
  return kExitOk;
}

const VerbRegistration kRegistration{"report", "the investigation as one self-contained HTML page", &run_report};

}  // namespace
}  // namespace cuprobe
